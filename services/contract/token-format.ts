import { createHmac, timingSafeEqual } from "node:crypto";
import type { Restriction, Scope } from "./caller";

/** Every token starts so; keys start with `svc_live_` or `svc_test_`. */
export const TOKEN_PREFIX = "svc_tok_";

/**
 * What a token says, signed: any gateway replica verifies it with the signing secret alone, without a
 * lookup. `kh` names the minting key's secret (its SHA-256), so the token dies with that secret.
 */
export interface TokenClaims {
  /** The signing secret's id. */
  sid: string;
  /** The token's id: its own rate-limit window and its name in logs. */
  jti: string;
  tenant: string;
  env: "live" | "test";
  /** The minting key's id, and the SHA-256 of the secret that minted it. */
  kid: string;
  kh: string;
  scopes: Scope[];
  restrict: Restriction | null;
  origins: string[];
  /** Requests per minute of the token's own window; null: only the minting key's applies. */
  rate_limit: number | null;
  /** Unix seconds. */
  exp: number;
}

const mac = (secret: string, payload: string) =>
  createHmac("sha256", Buffer.from(secret, "base64url")).update(TOKEN_PREFIX).update(payload).digest();

/** `svc_tok_<claims as base64url JSON>.<HMAC-SHA256 of prefix and claims, base64url>`. */
export function signToken(claims: TokenClaims, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${TOKEN_PREFIX}${payload}.${mac(secret, payload).toString("base64url")}`;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** Claims of the right shape; anything else is as good as a bad signature. */
function isClaims(c: Record<string, unknown>): boolean {
  return (
    typeof c.sid === "string" &&
    typeof c.jti === "string" &&
    typeof c.tenant === "string" &&
    (c.env === "live" || c.env === "test") &&
    typeof c.kid === "string" &&
    typeof c.kh === "string" &&
    isStringArray(c.scopes) &&
    (c.restrict === null || (typeof c.restrict === "object" && !Array.isArray(c.restrict))) &&
    isStringArray(c.origins) &&
    (c.rate_limit === null || Number.isSafeInteger(c.rate_limit)) &&
    Number.isSafeInteger(c.exp)
  );
}

/**
 * The claims of a token whose signature verifies with the secret its `sid` names (`secretOf`), or null for
 * anything else: malformed, unknown secret, a changed byte anywhere. Expiry is the caller's to check.
 */
export function readToken(token: string, secretOf: (sid: string) => string | undefined): TokenClaims | null {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 4096) return null;
  const [payload, signature, ...rest] = token.slice(TOKEN_PREFIX.length).split(".");
  if (!payload || !signature || rest.length > 0 || !B64URL.test(payload) || !B64URL.test(signature)) return null;
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (typeof claims !== "object" || claims === null || typeof claims.sid !== "string") return null;
  const secret = secretOf(claims.sid);
  if (!secret) return null;
  // The text is compared, not decoded bytes: base64url decoding ignores a last character's spare bits.
  const expected = Buffer.from(mac(secret, payload).toString("base64url"));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return isClaims(claims) ? (claims as unknown as TokenClaims) : null;
}

/** The signing secret id a token names, without verifying anything (to learn of a secret not yet known). */
export function secretIdOf(token: string): string | null {
  const payload = token.slice(TOKEN_PREFIX.length).split(".")[0] ?? "";
  try {
    const sid = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))?.sid;
    return typeof sid === "string" ? sid : null;
  } catch {
    return null;
  }
}
