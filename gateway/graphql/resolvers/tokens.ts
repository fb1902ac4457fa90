import { createToken } from "../../../services/contract/tokens";
import { call, type GraphQLContext } from "../context";
import { toInput } from "../args";
import type { Args } from "./shared";

export const tokenResolvers = {
  Mutation: {
    createToken: (_: unknown, { input }: Args, ctx: GraphQLContext) => {
      const { restrict, ...rest } = input ?? {};
      // `restrict` is an object of names to map too (toInput does not walk values); metadata keys stay as sent.
      return call(ctx, createToken, toInput({ input: rest, ...(restrict ? { restrict: toInput(restrict) } : {}) }));
    },
  },
};
