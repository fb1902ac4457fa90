import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { PLANS, SCOPES } from "./caller";
import { DateTime, Enum, ENVIRONMENTS, Nullable, Page, pageInput, Uuid } from "./common";

/** `svc_<live|test>_<32 base64url chars>`: checked before any I/O. */
export const API_KEY_RE = /^svc_(live|test)_[A-Za-z0-9_-]{32}$/;

export { PLANS, type Plan } from "./caller";

export const DEFAULT_SCOPES = ["memories:read", "memories:write", "search:read"] as const;

export const ApiKey = T.Object({
  id: Uuid(),
  name: T.String(),
  prefix: T.String({ description: "First characters of the secret, to recognise a key; not secret." }),
  scopes: T.Array(Enum(SCOPES)),
  rate_limit: Nullable(T.Integer()),
  plan: Enum(PLANS),
  environment: Enum(ENVIRONMENTS),
  tenant_id: T.String(),
  expires_at: Nullable(DateTime()),
  created_at: DateTime(),
  last_used_at: Nullable(DateTime()),
  revoked_at: Nullable(DateTime()),
});
export type ApiKey = Static<typeof ApiKey>;

/** A key's name, scopes, limit and expiry: the same rules when it is created and when it is changed. */
const KeyName = T.String({ minLength: 1, maxLength: 100 });
const KeyScopes = (description: string) =>
  T.Array(Enum(SCOPES), { minItems: 1, maxItems: SCOPES.length, uniqueItems: true, description });
const RateLimit = (description: string) => T.Integer({ minimum: 1, maximum: 10_000_000, description });
/** Key ids arrive as strings: a malformed one is simply unknown (404), only absurd lengths are a 400. */
const KeyId = T.String({ minLength: 1, maxLength: 64 });

export const CreateKeyInput = T.Object(
  {
    name: KeyName,
    scopes: T.Optional(
      KeyScopes(
        "Default: memories:read, memories:write, search:read. Only scopes the minting key holds (`*` from `*`).",
      ),
    ),
    rate_limit: T.Optional(
      RateLimit("Requests per minute, at most the minting key's limit (the default when the plan's is higher)."),
    ),
    plan: T.Optional(Enum(PLANS, { description: "Root key only; other keys mint keys on their own plan." })),
    environment: T.Optional(Enum(ENVIRONMENTS, { default: "live", description: "A test key mints test keys only." })),
    expires_at: T.Optional(DateTime({ description: "No later than the minting key's expiry (the default)." })),
    tenant_id: T.Optional(
      T.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_.-]+$", description: "Root key only." }),
    ),
  },
  { additionalProperties: false },
);

export const CreatedKey = T.Composite([ApiKey, T.Object({ key: T.String(), message: T.String() })]);

export const createKey = op({
  subject: "keys.create",
  secret: true,
  input: CreateKeyInput,
  output: CreatedKey,
  scope: "admin",
  summary: "Create an API key (the secret is returned only here)",
});

export const listKeys = op({
  subject: "keys.list",
  idempotent: true,
  input: T.Object({ ...pageInput(50) }, { additionalProperties: false }),
  output: Page(ApiKey),
  scope: "admin",
  summary: "List the tenant's API keys (never a secret or a hash)",
});

export const revokeKey = op({
  subject: "keys.revoke",
  input: T.Object({ id: T.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  output: T.Object({ id: Uuid(), revoked: T.Literal(true), revoked_at: DateTime() }),
  scope: "admin",
  summary: "Revoke an API key; it fails on every gateway replica within a second",
});

export const getKey = op({
  subject: "keys.get",
  idempotent: true,
  input: T.Object({ id: KeyId }, { additionalProperties: false }),
  output: ApiKey,
  scope: "admin",
  summary: "Get one API key, as listed (never a secret or a hash)",
});

export const UpdateKeyInput = T.Object(
  {
    id: KeyId,
    name: T.Optional(KeyName),
    scopes: T.Optional(KeyScopes("Replaces the key's scopes: only scopes the calling key holds (`*` from `*`).")),
    rate_limit: T.Optional(
      Nullable(
        RateLimit("Requests per minute, at most the calling key's limit; null = the key's plan limit, within it too."),
      ),
    ),
    expires_at: T.Optional(
      Nullable(
        DateTime({
          description:
            "In the future, no later than the calling key's expiry; null = never, if the calling key never expires.",
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const updateKey = op({
  subject: "keys.update",
  input: UpdateKeyInput,
  output: ApiKey,
  scope: "admin",
  summary: "Change an API key: only the fields sent change, never beyond what the calling key holds",
});

/** The longest both secrets of a rotated key work side by side: one day. */
export const MAX_GRACE_SECONDS = 86_400;

export const rotateKey = op({
  subject: "keys.rotate",
  secret: true,
  input: T.Object(
    {
      id: KeyId,
      grace_seconds: T.Optional(
        T.Integer({
          minimum: 0,
          maximum: MAX_GRACE_SECONDS,
          default: 0,
          description: "How long the previous secret keeps working; 0 = it stops at once.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: CreatedKey,
  scope: "admin",
  summary: "Give an API key a new secret (returned only here); the previous one stops at once or after a grace",
});

/** Internal: the gateway sends the SHA-256 of a presented key, never the key itself. */
export const VerifiedKey = T.Object({
  keyId: T.String(),
  name: T.String(),
  prefix: T.String(),
  tenant: T.String(),
  env: Enum(ENVIRONMENTS),
  scopes: T.Array(Enum(SCOPES)),
  root: T.Boolean(),
  plan: Enum(PLANS),
  perMinute: T.Integer({ description: "0 = unlimited" }),
  perDay: T.Integer({ description: "0 = unlimited" }),
  expiresAt: Nullable(T.Integer({ description: "ms since epoch" })),
  replaced: T.Boolean({ description: "A previous secret, in its grace after a rotation." }),
});
export type VerifiedKey = Static<typeof VerifiedKey>;

export const verifyKey = op({
  subject: "keys.verify",
  idempotent: true,
  input: T.Object({ hash: T.String({ pattern: "^[0-9a-f]{64}$" }) }),
  output: VerifiedKey,
  summary: "Internal: resolve a key hash to its identity and limits",
});

/**
 * Core-NATS broadcast (no queue group) of a revoked key: every gateway replica drops the hash from
 * its cache and ends the key's open streams.
 */
export const KEY_REVOKED_SUBJECT = "keys.events.revoked";

export interface KeyRevoked {
  hash: string;
  key_id: string;
}

export const revokedNotice = (key: { id: string; hash: string }): KeyRevoked => ({ hash: key.hash, key_id: key.id });

/**
 * Core-NATS broadcast (no queue group) of a changed key (its scopes, limit or expiry, or a new secret):
 * every gateway replica drops the listed secrets' cached verifications and checks the key's open streams
 * again. `hashes` are the SHA-256 of the secrets whose verification changed (the key's current one, and
 * a previous one while it still works).
 */
export const KEY_CHANGED_SUBJECT = "keys.events.changed";

export interface KeyChanged {
  key_id: string;
  hashes: string[];
}
