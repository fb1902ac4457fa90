import { beforeAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import { apiClient, newTenant } from "../api";
import { testStack } from "../harness";
import type { Stack } from "../../scripts/stack/launch";
import { graphqlWithCookie, SESSION_PATH, signIn } from "./session-helpers";

let stack: Stack;
let baseUrl = "";
let redis: Redis;

beforeAll(async () => {
  stack = await testStack();
  baseUrl = stack.baseUrl;
  redis = new Redis(stack.redisUrl);
});

const session = (cookie: string, method = "GET", headers: Record<string, string> = {}) =>
  fetch(baseUrl + SESSION_PATH, { method, headers: { cookie, ...headers } });

describe("POST /dashboard/api/session", () => {
  test("a key becomes a session: a random id in an HttpOnly SameSite=Strict cookie; the key kept nowhere", async () => {
    const { key, keyId, tenant } = await newTenant(baseUrl, stack.adminKey, { scopes: ["*"] });
    const s = await signIn(baseUrl, key);
    expect(s.status).toBe(200);
    expect(s.setCookie).toMatch(/^dashboard_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(s.setCookie).not.toContain(key);
    expect(s.headers.get("cache-control")).toBe("no-store");
    expect(s.body.data).toEqual({
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      key: {
        id: keyId,
        name: "test",
        prefix: key.slice(0, 13),
        scopes: ["*"],
        tenant_id: tenant,
        environment: "live",
        expires_at: null,
      },
      read_only: false,
    });
    expect(s.body.meta.request_id).toBe(s.headers.get("x-request-id")!);
    // Redis holds the session under a hash of its id, and neither the id nor the key.
    const sessionId = s.cookie.split("=")[1]!;
    const keys = await redis.keys("dsess:*");
    const mine = `dsess:${new Bun.CryptoHasher("sha256").update(sessionId).digest("hex")}`;
    expect(keys).toContain(mine);
    const stored = JSON.stringify(await redis.hgetall(mine));
    expect(stored).not.toContain(sessionId);
    expect(stored).not.toContain(key);
    expect(stored).toContain(keyId);
  });

  test("a key without the admin scope signs in read-only", async () => {
    const { key } = await newTenant(baseUrl, stack.adminKey, { scopes: ["memories:read", "search:read"] });
    const s = await signIn(baseUrl, key);
    expect(s.status).toBe(200);
    expect(s.body.data.read_only).toBe(true);
    expect(s.body.data.key.scopes).toEqual(["memories:read", "search:read"]);
  });

  test("refusals use the envelope and set no cookie: malformed 400, unknown or revoked key 401", async () => {
    const cases: [unknown, number, string, object?][] = [
      ["not a key", 400, "VALIDATION_ERROR", { field: "key", constraint: "format" }],
      [42, 400, "VALIDATION_ERROR", { field: "key" }],
      [undefined, 400, "VALIDATION_ERROR", { field: "key", constraint: "required" }],
      [`svc_live_${"A".repeat(32)}`, 401, "UNAUTHORIZED"],
    ];
    for (const [key, status, code, details] of cases) {
      const s = await signIn(baseUrl, key);
      expect({ key, status: s.status, code: s.body.error?.code }).toEqual({ key, status, code });
      if (details) expect(s.body.error.details).toMatchObject(details);
      expect(s.setCookie).toBe("");
    }
    const extra = await fetch(baseUrl + SESSION_PATH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: stack.adminKey, remember: true }),
    });
    expect(extra.status).toBe(400);
    expect((await extra.json()).error.details).toMatchObject({ field: "remember", constraint: "unknown_field" });
  });
});

describe("GET and DELETE /dashboard/api/session", () => {
  test("GET answers the live session (same CSRF token); no cookie or an unknown one is 401", async () => {
    const s = await signIn(baseUrl, stack.adminKey);
    const res = await session(s.cookie);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.csrf_token).toBe(s.csrf);
    expect(body.data.read_only).toBe(false);
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull(); // the guard counted it

    const none = await fetch(baseUrl + SESSION_PATH);
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe("UNAUTHORIZED");
    const unknown = await session(`dashboard_session=${"x".repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("set-cookie")).toContain("Max-Age=0");
  });

  test("DELETE needs the CSRF token; then the session works nowhere and the cookie is cleared", async () => {
    const s = await signIn(baseUrl, stack.adminKey);
    const noToken = await session(s.cookie, "DELETE");
    expect(noToken.status).toBe(403);
    expect((await noToken.json()).error).toMatchObject({ code: "FORBIDDEN", details: { field: "x-csrf-token" } });
    expect((await session(s.cookie)).status).toBe(200);

    const ended = await session(s.cookie, "DELETE", { "x-csrf-token": s.csrf });
    expect(ended.status).toBe(200);
    expect((await ended.json()).data).toEqual({ ended: true });
    expect(ended.headers.get("set-cookie")).toBe("dashboard_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    expect((await session(s.cookie)).status).toBe(401);
    const gql = await graphqlWithCookie(baseUrl, s.cookie, "{ __typename }", { csrf: s.csrf });
    expect(gql.status).toBe(401);
    expect(gql.body.error.code).toBe("UNAUTHORIZED");
  });

  test("revoking the key ends its sessions at their next use", async () => {
    const { key, keyId } = await newTenant(baseUrl, stack.adminKey, { scopes: ["*"] });
    const s = await signIn(baseUrl, key);
    expect((await session(s.cookie)).status).toBe(200);
    expect((await apiClient(baseUrl, key).delete(`/v1/keys/${keyId}`)).status).toBe(200);
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      status = (await session(s.cookie)).status;
      if (status === 200) await Bun.sleep(100);
    }
    expect(status).toBe(401);
    const sessionId = s.cookie.split("=")[1]!;
    expect(await redis.exists(`dsess:${new Bun.CryptoHasher("sha256").update(sessionId).digest("hex")}`)).toBe(0);
  });
});

describe("/graphql with the session cookie", () => {
  test("every POST needs X-CSRF-Token equal to the session's: missing or wrong is 403", async () => {
    const s = await signIn(baseUrl, stack.adminKey);
    const oneOff = s.csrf.slice(0, -1) + (s.csrf.endsWith("A") ? "B" : "A");
    for (const csrf of [undefined, "", "wrong", oneOff, s.csrf.toLowerCase()]) {
      const res = await graphqlWithCookie(baseUrl, s.cookie, "{ __typename }", { csrf });
      expect({ csrf, status: res.status }).toEqual({ csrf, status: 403 });
      expect(res.body.error).toMatchObject({ code: "FORBIDDEN", details: { field: "x-csrf-token" } });
    }
    const ok = await graphqlWithCookie(baseUrl, s.cookie, "{ __typename }", { csrf: s.csrf });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { __typename: "Query" } });
    expect(ok.headers.get("x-ratelimit-limit")).not.toBeNull();
  });

  test("a GET reads without the token, and cannot carry a mutation", async () => {
    const s = await signIn(baseUrl, stack.adminKey);
    const read = await graphqlWithCookie(baseUrl, s.cookie, "{ __typename }", { method: "GET" });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ __typename: "Query" });
    const write = await graphqlWithCookie(baseUrl, s.cookie, 'mutation { createTag(input: {name: "csrf"}) { id } }', {
      method: "GET",
    });
    expect(write.status).toBe(405);
    expect(write.body.data ?? null).toBeNull();
  });

  test("the session's key decides: a read-only session cannot list keys", async () => {
    const { key } = await newTenant(baseUrl, stack.adminKey, { scopes: ["memories:read"] });
    const s = await signIn(baseUrl, key);
    const res = await graphqlWithCookie(baseUrl, s.cookie, "{ keys { total } }", { csrf: s.csrf });
    expect(res.body.data).toEqual({ keys: null });
    expect(res.body.errors[0].extensions.code).toBe("FORBIDDEN");
  });

  test("an Authorization header wins over the cookie, and needs no CSRF token", async () => {
    const s = await signIn(baseUrl, stack.adminKey);
    const res = await fetch(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { cookie: s.cookie, authorization: `Bearer ${stack.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(res.status).toBe(200);
    const bad = await fetch(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { cookie: s.cookie, authorization: "Bearer nope", "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(bad.status).toBe(401);
  });

  test("REST does not take the cookie", async () => {
    const s = await signIn(baseUrl, stack.adminKey);
    const res = await fetch(`${baseUrl}/v1/memories`, { headers: { cookie: s.cookie, "x-csrf-token": s.csrf } });
    expect(res.status).toBe(401);
  });
});

describe("behind a proxy, and sign-in attempts", () => {
  test("TRUST_PROXY off: X-Forwarded-Proto and X-Forwarded-For are ignored", async () => {
    const s = await signIn(baseUrl, stack.adminKey, { "x-forwarded-proto": "https" });
    expect(s.status).toBe(200);
    expect(s.setCookie).not.toContain("Secure");
  });

  test("TRUST_PROXY on: Secure over https; attempts are limited per client address, valid key or not", async () => {
    const gw = await stack.addGateway({ TRUST_PROXY: "true", SIGNIN_ATTEMPTS_PER_MINUTE: "3" });
    try {
      const from = (address: string) => ({
        "x-forwarded-for": `203.0.113.9, ${address}`,
        "x-forwarded-proto": "https",
      });
      const secure = await signIn(gw.baseUrl, stack.adminKey, from("192.0.2.1"));
      expect(secure.setCookie).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
      for (let i = 0; i < 2; i++)
        expect((await signIn(gw.baseUrl, "svc_live_guess", from("192.0.2.1"))).status).toBe(400);
      const limited = await signIn(gw.baseUrl, stack.adminKey, from("192.0.2.1"));
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatchObject({ code: "RATE_LIMITED", details: { retry_after: expect.any(Number) } });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.setCookie).toBe("");
      // Another address has its own budget.
      expect((await signIn(gw.baseUrl, stack.adminKey, from("192.0.2.2"))).status).toBe(200);
    } finally {
      await gw.child.stop();
    }
  }, 90_000);
});
