import { buildContext, searchMemories } from "../../../services/contract/search";
import { call, type GraphQLContext } from "../context";
import { toInput } from "../args";
import type { Args } from "./shared";

/** A hit and a context memory are the memory itself plus score fields: `memory` is that same object. */
const itself = (x: unknown) => x;

export const searchResolvers = {
  Query: {
    search: async (_: unknown, args: Args, ctx: GraphQLContext) => {
      const out = await call(ctx, searchMemories, toInput(args));
      ctx.loaders.primeMemories(out.results); // a hit's parent is often another hit
      return out;
    },
    context: async (_: unknown, args: Args, ctx: GraphQLContext) => {
      const out = await call(ctx, buildContext, toInput(args));
      ctx.loaders.primeMemories(out.memories);
      return out;
    },
  },
  SearchHit: { memory: itself },
  ContextMemory: { memory: itself },
};
