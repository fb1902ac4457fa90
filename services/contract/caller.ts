import { Type as T, type Static } from "@sinclair/typebox";
import { Uuid } from "./common";

/**
 * Who is calling and what they may reach: the types every operation, every service and the gateway share.
 * A leaf module (it imports only ./common), so ./op, ./keys and ./tokens can all build on it without a cycle.
 */

/** The scopes of spec section 5, and `tokens:create` (browser tokens); `*` grants all. */
export const SCOPES = ["memories:read", "memories:write", "search:read", "admin", "tokens:create", "*"] as const;
export type Scope = (typeof SCOPES)[number];

export const PLANS = ["free", "pro", "enterprise", "self_hosted"] as const;
export type Plan = (typeof PLANS)[number];

const MetadataEquality = T.Record(
  T.String({ minLength: 1, maxLength: 100 }),
  T.Union([T.String({ maxLength: 1000 }), T.Number(), T.Boolean()]),
  { description: 'Equality on top-level metadata keys, e.g. {"user_id": "u_42"}.', maxProperties: 10 },
);

/** What a browser token may reach: memories matching every field given (services/contract/tokens.ts). */
export const Restriction = T.Object(
  {
    metadata: T.Optional(MetadataEquality),
    root_memory_id: T.Optional(Uuid({ description: "The subtree under this memory, itself included." })),
    tag_ids: T.Optional(
      T.Array(Uuid(), { minItems: 1, maxItems: 20, uniqueItems: true, description: "Memories carrying any of them." }),
    ),
  },
  { additionalProperties: false, description: "What the token may reach: memories matching every field given." },
);
export type Restriction = Static<typeof Restriction>;

/** Who is calling: set by the gateway from the verified API key, carried in a NATS header. */
export interface Caller {
  tenant: string;
  env: "live" | "test";
  keyId: string;
  scopes: Scope[];
  /** The bootstrap admin key: the only one that may mint keys in other tenants. */
  root?: boolean;
  /** The key's plan: what the tenant's storage quotas default to (services/memories/storage/quota.ts). */
  plan?: Plan;
  /**
   * Set when the request carries a browser token minted by `keyId`: its id, and what it may reach
   * (null: the whole tenant). Each service enforces `restrict` in its handlers.
   */
  token?: { id: string; restrict: Restriction | null };
}

export const hasScope = (caller: Pick<Caller, "scopes">, scope: Scope | undefined) =>
  scope === undefined || caller.scopes.includes("*") || caller.scopes.includes(scope);
