import { describe, expect, test } from "bun:test";
import { readToken, secretIdOf, signToken, TOKEN_PREFIX, type TokenClaims } from "./token-format";

const secret = Buffer.alloc(32, 1).toString("base64url");
const other = Buffer.alloc(32, 2).toString("base64url");
const claims: TokenClaims = {
  sid: "s1",
  jti: "j1",
  tenant: "acme",
  env: "live",
  kid: "k1",
  kh: "a".repeat(64),
  scopes: ["memories:read"],
  restrict: { metadata: { user_id: "u_1" } },
  origins: ["https://app.example.com"],
  rate_limit: null,
  exp: 2_000_000_000,
};
const secretOf = (id: string) => (id === "s1" ? secret : undefined);

describe("token format", () => {
  test("a signed token reads back as its claims; its secret id is readable unverified", () => {
    const token = signToken(claims, secret);
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(readToken(token, secretOf)).toEqual(claims);
    expect(secretIdOf(token)).toBe("s1");
  });

  test("another secret, an unknown secret id, any changed character or a bad shape reads as null", () => {
    const token = signToken(claims, secret);
    expect(readToken(signToken(claims, other), secretOf)).toBeNull();
    expect(readToken(signToken({ ...claims, sid: "s2" }, secret), secretOf)).toBeNull();
    for (let i = TOKEN_PREFIX.length; i < token.length; i++) {
      if (token[i] === ".") continue;
      const changed = token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1);
      expect(readToken(changed, secretOf)).toBeNull();
    }
    expect(readToken(signToken({ ...claims, exp: "soon" } as unknown as TokenClaims, secret), secretOf)).toBeNull();
    expect(readToken(token.replace(TOKEN_PREFIX, "svc_live_"), secretOf)).toBeNull();
  });
});
