import { createKey, listKeys, revokeKey } from "../../../services/contract/keys";
import { getUsage } from "../../../services/contract/usage";
import { call, type GraphQLContext } from "../context";
import { knownId, toInput } from "../args";
import type { Args } from "./shared";

export const keyResolvers = {
  Query: {
    keys: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, listKeys, toInput(args)),
    usage: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, getUsage, toInput(args)),
  },
  Mutation: {
    createKey: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, createKey, toInput(args)),
    revokeKey: (_: unknown, { id }: Args, ctx: GraphQLContext) => call(ctx, revokeKey, { id: knownId(id, "API key") }),
  },
  /** The created key is the ApiKey plus its secret; `apiKey` is the same object seen as an ApiKey. */
  CreateKeyPayload: { apiKey: (p: unknown) => p },
};
