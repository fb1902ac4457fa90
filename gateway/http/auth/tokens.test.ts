import { describe, expect, test } from "bun:test";
import type { VerifiedKey } from "../../../services/contract/keys";
import type { Caller } from "../../../services/contract/op";
import type { TokenClaims } from "../../../services/contract/token-format";
import { keyCallerOf } from "./auth";
import { TOKEN_CALLER_FIELDS, tokenCallerOf } from "./tokens";

/** A verified key with every field set, the flags that widen a caller included. */
const verified: VerifiedKey = {
  keyId: "k1",
  name: "backend",
  prefix: "svc_live_abc",
  tenant: "acme",
  env: "live",
  scopes: ["memories:read", "memories:write", "tokens:create"],
  root: true,
  plan: "free",
  perMinute: 600,
  perDay: 0,
  expiresAt: null,
  replaced: false,
};

const claims: TokenClaims = {
  sid: "s1",
  jti: "tok-1",
  tenant: "acme",
  env: "live",
  kid: "k1",
  kh: "0".repeat(64),
  scopes: ["memories:read", "search:read"],
  restrict: { metadata: { user_id: "u_1" } },
  origins: [],
  rate_limit: null,
  exp: 2_000_000_000,
};

/** What a token may change of its key's caller: its own scopes and restriction; and it never holds `root`. */
const NARROWED = ["scopes", "token"];
const NEVER = ["root"];

describe("a token's caller", () => {
  test("a key's caller sets every field of Caller but a token's own", () => {
    const key = keyCallerOf(verified);
    const everyField = Object.keys(TOKEN_CALLER_FIELDS).filter((f) => f !== "token");
    expect(Object.keys(key).sort()).toEqual(everyField.sort());
  });

  test("carries every field of its key's caller, unchanged, except its scopes and restriction; never root", () => {
    const key = keyCallerOf(verified);
    const token = tokenCallerOf(key, claims);
    for (const field of Object.keys(key) as (keyof Caller)[]) {
      if (NEVER.includes(field)) expect(field in token).toBe(false);
      else if (!NARROWED.includes(field)) expect([field, token[field]]).toEqual([field, key[field]]);
    }
    expect(token.plan).toBe("free");
    expect(token.scopes).toEqual(["memories:read"]); // search:read is not the key's
    expect(token.token).toEqual({ id: "tok-1", restrict: { metadata: { user_id: "u_1" } } });
    expect(Object.keys(TOKEN_CALLER_FIELDS).filter((f) => TOKEN_CALLER_FIELDS[f as keyof Caller] !== "kept")).toEqual(
      expect.arrayContaining([...NARROWED, ...NEVER]),
    );
  });

  test("a token of a key without root or with every scope gets the token's scopes only", () => {
    const token = tokenCallerOf(keyCallerOf({ ...verified, root: false, scopes: ["*"] }), claims);
    expect(token.scopes).toEqual(["memories:read", "search:read"]);
    expect("root" in token).toBe(false);
  });
});
