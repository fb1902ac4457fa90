import type { NatsConnection } from "nats";
import { ServiceError } from "../../../services/contract/errors";
import { readToken, secretIdOf, type TokenClaims } from "../../../services/contract/token-format";
import { TOKEN_SECRETS_SUBJECT, tokenSecrets } from "../../../services/contract/tokens";
import type { Bus } from "../../../services/kit/bus";
import { type Caller, hasScope } from "../../../services/contract/op";

/**
 * What a token's caller takes of its minting key's, field by field. Every field of Caller must be named (the type
 * says so), so a new one is decided on rather than forgotten: `kept` as the key has it (the rules that hang on the
 * key, such as its plan's quotas, bind its tokens alike), `narrowed` to the token's claims, or `never` a token's.
 */
export const TOKEN_CALLER_FIELDS = {
  tenant: "kept",
  env: "kept",
  keyId: "kept",
  plan: "kept",
  /** The token's own scopes, as far as the key still holds them. */
  scopes: "narrowed",
  /** The token's id and restriction. */
  token: "narrowed",
  /** The operator's key mints no operator tokens. */
  root: "never",
} as const satisfies Record<keyof Caller, "kept" | "narrowed" | "never">;

const KEPT = (Object.keys(TOKEN_CALLER_FIELDS) as (keyof Caller)[]).filter((f) => TOKEN_CALLER_FIELDS[f] === "kept");

/** The one place a token's caller is made: its minting key's caller, narrowed to the token's claims. */
export function tokenCallerOf(key: Caller, claims: TokenClaims): Caller {
  const caller = {
    scopes: claims.scopes.filter((s) => hasScope(key, s)),
    token: { id: claims.jti, restrict: claims.restrict },
  } as Caller;
  for (const field of KEPT) (caller as Record<keyof Caller, unknown>)[field] = key[field];
  return caller;
}

export const invalidToken = () => new ServiceError("UNAUTHORIZED", "Invalid or expired token");

/** An unknown signing secret id fetches the secrets again at most this often (a forged id costs nothing). */
const REFETCH_MS = 1000;
const MAX_VERIFIED = 10_000;

/**
 * Verifies browser tokens with the signing secrets the keys service keeps: fetched once, again when it
 * announces a rotation (or a token names a secret not known yet), so a request costs an HMAC, not a lookup.
 * A verified token's claims are remembered (bounded), so its next requests cost a map read.
 */
export function createTokenVerifier(nc: NatsConnection, bus: Bus) {
  let secrets = new Map<string, string>();
  let fetching: Promise<void> | null = null;
  let fetchedAt = 0;
  const verified = new Map<string, TokenClaims>();

  const refresh = (requestId: string): Promise<void> => {
    fetching ??= bus
      .call(tokenSecrets, {}, { requestId })
      .then((out) => {
        secrets = new Map(out.secrets.map((s) => [s.id, s.secret]));
        fetchedAt = Date.now();
        verified.clear(); // a secret may be gone
      })
      .finally(() => {
        fetching = null;
      });
    return fetching;
  };
  const sub = nc.subscribe(TOKEN_SECRETS_SUBJECT, {
    callback: (err) => err || void refresh(crypto.randomUUID()).catch(() => (fetchedAt = 0)),
  });

  return {
    /** The claims of a token that verifies and has not expired; else 401. */
    async claimsOf(token: string, requestId: string): Promise<TokenClaims> {
      let claims = verified.get(token);
      if (!claims) {
        const sid = secretIdOf(token);
        if (sid !== null && !secrets.has(sid) && Date.now() - fetchedAt >= REFETCH_MS) await refresh(requestId);
        claims = readToken(token, (id) => secrets.get(id)) ?? undefined;
        if (!claims) throw invalidToken();
        if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
        verified.set(token, claims);
      }
      if (claims.exp * 1000 <= Date.now()) throw invalidToken();
      return claims;
    },
    close: () => sub.unsubscribe(),
  };
}

export type TokenVerifier = ReturnType<typeof createTokenVerifier>;
