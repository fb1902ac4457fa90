import { getTenant, updateTenant } from "../../../services/contract/tenant";
import { eraseTenant } from "../../../services/contract/erase";
import { call, type GraphQLContext } from "../context";
import { toInput } from "../args";
import type { Args } from "./shared";

export const tenantResolvers = {
  Query: {
    tenant: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, getTenant, toInput(args)),
  },
  Mutation: {
    updateTenant: (_: unknown, { input }: Args, ctx: GraphQLContext) => {
      // `cors` holds a name to map too (toInput does not walk values).
      const { cors, ...rest } = input ?? {};
      return call(ctx, updateTenant, toInput({ input: rest, ...(cors ? { cors: toInput(cors) } : {}) }));
    },
    eraseTenant: async (_: unknown, args: Args, ctx: GraphQLContext) => {
      const erased = await call(ctx, eraseTenant, toInput(args));
      // The gateway's own records of the space: answers kept for Idempotency-Key replays.
      await ctx.deps.idempotency.erase(erased.tenant_id, erased.environment);
      return erased;
    },
  },
};
