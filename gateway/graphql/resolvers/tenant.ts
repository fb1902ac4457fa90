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
    updateTenant: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, updateTenant, toInput(args)),
    eraseTenant: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, eraseTenant, toInput(args)),
  },
};
