import type { TSchema, Static } from "@sinclair/typebox";
import { compileValidator, type Validator } from "./validation";
import type { Plan } from "./keys";

/** The scopes of spec section 5, and `tokens:create` (browser tokens); `*` grants all. */
export const SCOPES = ["memories:read", "memories:write", "search:read", "admin", "tokens:create", "*"] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * One operation of the contract: its NATS subject, input and output schemas and the scope a public
 * caller needs. Every adapter (REST, GraphQL, MCP) and the service that serves it read this one object.
 */
export interface Operation<I extends TSchema = TSchema, O extends TSchema = TSchema> {
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
  validate: Validator<I>;
}

export type InputOf<Op> = Op extends Operation<infer I, TSchema> ? Static<I> : never;
export type OutputOf<Op> = Op extends Operation<TSchema, infer O> ? Static<O> : never;

export function op<I extends TSchema, O extends TSchema>(def: {
  subject: string;
  input: I;
  output: O;
  scope?: Scope;
  summary: string;
  idempotent?: boolean;
  timeoutMs?: number;
  secret?: boolean;
  erasesKeptAnswers?: boolean;
  claimsIdempotencyKey?: boolean;
}): Operation<I, O> {
  return { ...def, validate: compileValidator(def.input) };
}

/** Who is calling: set by the gateway from the verified API key, carried in a NATS header. */
export interface Caller {
  tenant: string;
  env: "live" | "test";
  keyId: string;
  scopes: Scope[];
  /** The bootstrap admin key: the only one that may mint keys in other tenants. */
  root?: boolean;
  /** The key's plan: what the tenant's storage quotas default to (services/memories/quota.ts). */
  plan?: Plan;
  /**
   * Set when the request carries a browser token minted by `keyId`: its id, and what it may reach
   * (null: the whole tenant). Each service enforces `restrict` in its handlers.
   */
  token?: { id: string; restrict: Restriction | null };
}

/** What a browser token may reach: memories matching every field given (services/contract/tokens.ts). */
export interface Restriction {
  /** Equality on top-level metadata keys. */
  metadata?: Record<string, string | number | boolean>;
  /** The subtree under this memory (itself included). */
  root_memory_id?: string;
  /** Memories carrying any of these tags. */
  tag_ids?: string[];
}

export const hasScope = (caller: Pick<Caller, "scopes">, scope: Scope | undefined) =>
  scope === undefined || caller.scopes.includes("*") || caller.scopes.includes(scope);
