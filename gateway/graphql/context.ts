import type { TSchema } from "@sinclair/typebox";
import type { InputOf, Operation, OutputOf } from "../../services/contract/op";
import type { Identity } from "../http/auth";
import { requireScope } from "../http/guard";
import type { GatewayDeps } from "../deps";
import type { Loaders } from "./loaders";

/** What every resolver sees: built once per HTTP request by the /graphql handler, after the guard admitted it. */
export interface GraphQLContext {
  deps: GatewayDeps;
  identity: Identity;
  requestId: string;
  loaders: Loaders;
}

/**
 * The only way a resolver or loader reaches a service: the operation's own scope, then the same
 * `bus.call` REST uses (which validates the input against the contract). No business rule here.
 */
export function call<Op extends Operation<TSchema, TSchema>>(
  ctx: Pick<GraphQLContext, "deps" | "identity" | "requestId">,
  op: Op,
  input: InputOf<Op>,
): Promise<OutputOf<Op>> {
  requireScope(ctx.identity, op.scope);
  return ctx.deps.bus.call(op, input, { requestId: ctx.requestId, caller: ctx.identity.caller });
}
