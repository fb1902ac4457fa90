import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant } from "../api";
import type { Stack } from "../../scripts/stack/launch";

/**
 * CORS on /v1 and /graphql as a browser meets it (the browser itself: test/browser/tokens.test.ts):
 * preflights answered for any origin (they carry no credential), actual requests only for the origins
 * their own token allows (else its tenant's allow-list), and secret keys refused from other origins.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await testStack();
}, 90_000);

const origin = () => `https://app-${crypto.randomUUID().slice(0, 8)}.example`;

const preflight = (path: string, from: string, method = "POST") =>
  fetch(stack.baseUrl + path, {
    method: "OPTIONS",
    headers: {
      Origin: from,
      "Access-Control-Request-Method": method,
      "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
    },
  });

const from = (credential: string, at: string) => (method: string, path: string, body?: unknown) =>
  apiClient(stack.baseUrl, credential).raw(method, path, body, { Origin: at });

/** Retries `check` for up to 3 s (a replica reuses a tenant's allow-list for 2 s). */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await Bun.sleep(100);
  }
  return false;
}

describe("preflight", () => {
  test("an origin no token or tenant allows is answered too: the actual request decides", async () => {
    const app = origin();
    const res = await preflight("/v1/memories", app);
    expect(res.headers.get("access-control-allow-origin")).toBe(app);
    expect(res.status).toBe(204);
  });

  test("a token's origin is answered on /v1 and /graphql: methods, headers, max age, no credentials", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const app = origin();
    expect((await t.api.post("/v1/tokens", { origins: [app] })).status).toBe(200);
    for (const path of [
      "/v1/memories",
      "/v1/memories/0b8f6c1e-5d0a-4f7e-9c39-1c5d7b0e2a11",
      "/graphql",
      "/api/v1/tags",
    ]) {
      const res = await preflight(path, app);
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(app);
      expect(res.headers.get("access-control-allow-methods")).toContain("PATCH");
      const allowed = res.headers.get("access-control-allow-headers")!.toLowerCase();
      for (const h of ["authorization", "content-type", "idempotency-key", "x-request-id"])
        expect(allowed).toContain(h);
      expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("vary")).toContain("Origin");
    }
    expect((await preflight("/docs", app)).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("actual requests", () => {
  test("a token used from its origin gets CORS headers exposing the rate-limit and request-id headers", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const app = origin();
    const token = (await t.api.post("/v1/tokens", { origins: [app] })).body.data.token;
    const res = await from(token, app)("GET", "/v1/memories");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(app);
    const exposed = res.headers.get("access-control-expose-headers")!.toLowerCase();
    for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-request-id", "retry-after"])
      expect(exposed).toContain(h);
    const gql = await from(token, app)("POST", "/graphql", { query: "{ memories { total } }" });
    expect(gql.status).toBe(200);
    expect(gql.headers.get("access-control-allow-origin")).toBe(app);
  });

  test("a token used from another origin is refused with 403 and no CORS headers", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = (await t.api.post("/v1/tokens", { origins: [origin()] })).body.data.token;
    const res = await from(token, origin())("GET", "/v1/memories");
    expect(res.status).toBe(403);
    expect(res.body.error.details.field).toBe("origin");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("a secret key from another origin is a 403 telling to use a token; same origin is served", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const res = await from(t.key, origin())("GET", "/v1/memories");
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("POST /v1/tokens");
    const own = new URL(stack.baseUrl).origin;
    expect((await from(t.key, own)("GET", "/v1/memories")).status).toBe(200);
    expect((await t.api.get("/v1/memories")).status).toBe(200); // no Origin: a backend
  });

  test("a token without origins follows the tenant's allow-list, set with PATCH /v1/tenant", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const app = origin();
    const token = (await t.api.post("/v1/tokens", {})).body.data.token;
    expect((await from(token, app)("GET", "/v1/memories")).status).toBe(403);
    const patched = await t.api.patch("/v1/tenant", { cors: { allowed_origins: [app] } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.cors.allowed_origins).toEqual([app]);
    expect((await t.api.get("/v1/tenant")).body.data.cors.allowed_origins).toEqual([app]);
    expect(await eventually(async () => (await from(token, app)("GET", "/v1/memories")).status === 200)).toBe(true);
    expect((await preflight("/v1/memories", app)).status).toBe(204);
    await t.api.patch("/v1/tenant", { cors: { allowed_origins: [] } });
    expect(await eventually(async () => (await from(token, app)("GET", "/v1/memories")).status === 403)).toBe(true);
    const bad = await t.api.patch("/v1/tenant", { cors: { allowed_origins: ["app.example"] } });
    expect(bad.status).toBe(400);
  });

  test("a bad token from an allowed origin gets a 401 the page can read", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const app = origin();
    await t.api.post("/v1/tokens", { origins: [app] });
    const res = await from("svc_tok_nonsense.x", app)("GET", "/v1/memories");
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe(app);
  });
});
