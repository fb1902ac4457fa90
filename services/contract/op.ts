import type { TSchema, Static } from "@sinclair/typebox";
import { compileValidator, type Validator } from "./validation";
import type { Scope } from "./caller";

// Callers' types live in the leaf ./caller; most code has imported them from here, so they stay reachable here.
export { type Caller, hasScope, type Plan, type Restriction, SCOPES, type Scope } from "./caller";

/** What a contract file writes for an operation; op() adds its compiled input validator. */
export interface OperationSpec<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  subject: string;
  input: I;
  output: O;
  /** Scope required of a public caller; undefined for internal operations (gateway or service only). */
  scope?: Scope;
  summary: string;
  /**
   * Replaying it changes nothing and answers the same (reads). Only such operations are sent again
   * when the replica that took them dies mid-request (services/kit/bus.ts); writes never are.
   */
  idempotent?: boolean;
  /** How long a caller waits for it, when longer than the bus's default (operations doing bulk work). */
  timeoutMs?: number;
  /**
   * Its answer holds a secret shown only once (a new API key, a webhook signing secret). The gateway never
   * keeps such an answer, so it refuses an Idempotency-Key on it rather than promise a replay.
   */
  secret?: boolean;
  /**
   * It deletes every answer kept for Idempotency-Key replays in its tenant environment (an erase), its own
   * included, so the gateway refuses an Idempotency-Key on it rather than promise a replay.
   */
  erasesKeptAnswers?: boolean;
  /**
   * Its write claims the request's Idempotency-Key in its own atomic step (services/kit/wire.ts KeyClaim), so
   * the gateway does not claim it in a round trip of its own before the call.
   */
  claimsIdempotencyKey?: boolean;
}

/**
 * One operation of the contract: its NATS subject, input and output schemas and the scope a public
 * caller needs. Every adapter (REST, GraphQL, MCP) and the service that serves it read this one object.
 */
export interface Operation<I extends TSchema = TSchema, O extends TSchema = TSchema> extends OperationSpec<I, O> {
  validate: Validator<I>;
}

export type InputOf<Op> = Op extends Operation<infer I, TSchema> ? Static<I> : never;
export type OutputOf<Op> = Op extends Operation<TSchema, infer O> ? Static<O> : never;

export function op<I extends TSchema, O extends TSchema>(def: OperationSpec<I, O>): Operation<I, O> {
  return { ...def, validate: compileValidator(def.input) };
}
