import type { TSchema } from "@sinclair/typebox";
import type { Caller, InputOf, Operation, OutputOf, Restriction } from "../contract/op";
import { ServiceError } from "../contract/errors";
import type { Logger } from "./log";
import type { KeyClaim } from "./wire";
import type { TraceIds } from "./tracing/trace-context";

/** What a handler knows of its request: no NATS or HTTP types, so handlers test as plain functions. */
export interface HandlerContext {
  caller: Caller | null;
  requestId: string;
  log: Logger;
  /** The request's Idempotency-Key, for a write that claims it in its own step (Operation.claimsIdempotencyKey). */
  keyClaim?: KeyClaim;
  /** The request's span (its handler's, or the caller's while tracing is off): what its events and calls carry. */
  trace?: TraceIds | null;
}

export type Handler<Op extends Operation> = (
  input: InputOf<Op>,
  ctx: HandlerContext,
) => Promise<OutputOf<Op>> | OutputOf<Op>;

export interface Binding {
  op: Operation<TSchema, TSchema>;
  handler: (input: unknown, ctx: HandlerContext) => unknown;
}

/** Pairs an operation with its handler, type-checked against the contract. */
export const bind = <Op extends Operation>(op: Op, handler: Handler<Op>): Binding => ({
  op: op as Operation<TSchema, TSchema>,
  handler: handler as Binding["handler"],
});

/** Public operations need a caller; only the gateway sets it. */
export function requireCaller(ctx: HandlerContext): Caller {
  if (!ctx.caller) throw new ServiceError("UNAUTHORIZED", "Missing caller identity");
  return ctx.caller;
}

/** What the caller's browser token may reach; null for a key (the whole tenant). */
export const restrictionOf = (ctx: HandlerContext): Restriction | null => ctx.caller?.token?.restrict ?? null;
