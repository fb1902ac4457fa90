import { createKey, getKey, listKeys, revokeKey, rotateKey, updateKey } from "../../../services/contract/keys";
import { getUsage } from "../../../services/contract/usage";
import { call, type GraphQLContext } from "../context";
import { knownId, toInput } from "../args";
import type { Args } from "./shared";

export const keyResolvers = {
  Query: {
    keys: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, listKeys, toInput(args)),
    key: (_: unknown, { id }: Args, ctx: GraphQLContext) => call(ctx, getKey, { id: knownId(id, "API key") }),
    usage: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, getUsage, toInput(args)),
  },
  Mutation: {
    createKey: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, createKey, toInput(args)),
    revokeKey: (_: unknown, { id }: Args, ctx: GraphQLContext) => call(ctx, revokeKey, { id: knownId(id, "API key") }),
    updateKey: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      call(ctx, updateKey, toInput(args, { id: knownId(id, "API key") })),
    rotateKey: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      call(ctx, rotateKey, toInput(args, { id: knownId(id, "API key") })),
  },
  /** A created or rotated key is the ApiKey plus its secret; `apiKey` is the same object seen as an ApiKey. */
  CreateKeyPayload: { apiKey: (p: unknown) => p },
};
