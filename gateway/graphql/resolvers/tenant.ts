import { getTenant, updateTenant } from "../../../services/contract/tenant";
import { call, type GraphQLContext } from "../context";
import { toInput } from "../args";
import type { Args } from "./shared";

export const tenantResolvers = {
  Query: {
    tenant: (_: unknown, _args: Args, ctx: GraphQLContext) => call(ctx, getTenant, {}),
  },
  Mutation: {
    updateTenant: (_: unknown, { input }: Args, ctx: GraphQLContext) => {
      // `cors` holds a name to map too (toInput does not walk values).
      const { cors, ...rest } = input ?? {};
      return call(ctx, updateTenant, toInput({ input: rest, ...(cors ? { cors: toInput(cors) } : {}) }));
    },
  },
};
