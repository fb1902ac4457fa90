import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { Restriction, SCOPES } from "./caller";
import { DateTime, Enum, Nullable, Uuid } from "./common";

/**
 * Browser tokens: short-lived credentials a backend mints with its key (`POST /v1/tokens`) for code that
 * runs in a browser. A token holds at most its minting key's scopes (never `admin` or `tokens:create`),
 * may be restricted to some memories, to some browser origins and to its own per-minute window, and dies
 * with its expiry or its minting key (revoked or rotated). Its format is in ./token-format.ts.
 */

/** Scopes a token can never hold: it must not manage keys or tenants, nor mint further tokens. */
export const UNGRANTABLE_TO_TOKENS = ["admin", "tokens:create", "*"] as const;

export const TOKEN_TTL = { min: 60, max: 86_400, default: 900 } as const;

/** A browser origin as the `Origin` header sends it: scheme, host and an optional port, nothing else. */
export const ORIGIN_RE = /^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?$/;
export const Origin = T.String({
  maxLength: 200,
  pattern: ORIGIN_RE.source,
  description: "e.g. https://app.example.com",
});

export const CreateTokenInput = T.Object(
  {
    scopes: T.Optional(
      T.Array(Enum(SCOPES), {
        minItems: 1,
        maxItems: SCOPES.length,
        uniqueItems: true,
        description:
          "Default: memories:read, search:read. Only scopes the minting key holds; never admin or tokens:create.",
      }),
    ),
    ttl_seconds: T.Optional(T.Integer({ minimum: TOKEN_TTL.min, maximum: TOKEN_TTL.max, default: TOKEN_TTL.default })),
    restrict: T.Optional(Restriction),
    origins: T.Optional(
      T.Array(Origin, {
        maxItems: 20,
        uniqueItems: true,
        description: "Browser origins allowed to use the token; none: the tenant's CORS allow-list applies.",
      }),
    ),
    rate_limit: T.Optional(
      T.Integer({
        minimum: 1,
        maximum: 10_000_000,
        description: "The token's own requests per minute, counted besides the minting key's; at most its limit.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateTokenInput = Static<typeof CreateTokenInput>;

export const CreatedToken = T.Object({
  token: T.String({ description: "`svc_tok_…`: send it as `Authorization: Bearer <token>`." }),
  expires_at: DateTime(),
  scopes: T.Array(Enum(SCOPES)),
  restrict: Nullable(Restriction),
});

export const createToken = op({
  subject: "tokens.create",
  input: CreateTokenInput,
  output: CreatedToken,
  scope: "tokens:create",
  summary: "Mint a short-lived browser token, restricted and never holding more than the minting key",
});

/** One signing secret: its id (named in each token it signs) and 32 random bytes, base64url. */
export const SigningSecret = T.Object({ id: T.String(), secret: T.String() });
export type SigningSecret = Static<typeof SigningSecret>;

export const tokenSecrets = op({
  subject: "tokens.secrets",
  idempotent: true,
  input: T.Object({}),
  output: T.Object({ secrets: T.Array(SigningSecret, { description: "The current one first." }) }),
  summary: "Internal: the secrets tokens are signed with (current, then previous), for gateways to verify",
});

export const rotateTokenSecret = op({
  subject: "tokens.rotate-secret",
  input: T.Object({}),
  output: T.Object({ id: T.String() }),
  summary: "Internal: a new current signing secret; the previous one keeps verifying the tokens it signed",
});

/** Core-NATS broadcast of a rotated signing secret: every gateway fetches the secrets again. */
export const TOKEN_SECRETS_SUBJECT = "keys.events.token-secrets";
