import type { TSchema } from "@sinclair/typebox";
import type { InputOf, Operation, OutputOf } from "../../../services/contract/op";
import type { GatewayDeps } from "../../deps";
import type { Identity } from "../auth/identity";
import { requireScope } from "./guard";
import { keyRefusal } from "../idempotency/key";
import type { TraceIds } from "../../../services/kit/tracing/trace-context";

/** Who is calling and for which request: enough to run any contract operation on their behalf. */
export interface CallerContext {
  deps: GatewayDeps;
  identity: Identity;
  requestId: string;
  /** The request's span, for its calls while tracing is off (exchange.ts). */
  trace?: TraceIds;
  /** The request carries an Idempotency-Key its answer is kept for (a GraphQL mutation). */
  keyed?: boolean;
}

/**
 * How the GraphQL and MCP adapters reach a service: the operation's own scope, then the same
 * `bus.call` REST uses (which validates the input against the contract). No business rule here.
 */
export function callOperation<Op extends Operation<TSchema, TSchema>>(
  ctx: CallerContext,
  op: Op,
  input: InputOf<Op>,
): Promise<OutputOf<Op>> {
  requireScope(ctx.identity, op.scope);
  const refusal = ctx.keyed ? keyRefusal(op) : null;
  if (refusal) throw refusal;
  return ctx.deps.bus.call(op, input, { requestId: ctx.requestId, caller: ctx.identity.caller, trace: ctx.trace });
}
