import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { expectEnvelopeError } from "../envelope-helpers";

/** The guard in front of every route: which keys authenticate, which scopes they need, their rate limits. */
let stack: Stack;

beforeAll(async () => {
  stack = await testStack();
});

describe("authentication", () => {
  const altered = () => {
    const k = stack.adminKey;
    return k.slice(0, -1) + (k.endsWith("A") ? "B" : "A");
  };
  const cases: [string, () => Record<string, string>][] = [
    ["missing header", () => ({})],
    ["not Bearer", () => ({ Authorization: `Basic ${stack.adminKey}` })],
    ["no svc_ prefix", () => ({ Authorization: `Bearer key_live_${"a".repeat(32)}` })],
    ["unknown environment", () => ({ Authorization: `Bearer svc_prod_${"a".repeat(32)}` })],
    ["wrong length", () => ({ Authorization: `Bearer svc_live_${"a".repeat(31)}` })],
    ["unknown key", () => ({ Authorization: `Bearer svc_live_${"a".repeat(32)}` })],
    ["altered key", () => ({ Authorization: `Bearer ${altered()}` })],
  ];
  test.each(cases)("%s → 401 UNAUTHORIZED with the same body", async (_name, headers) => {
    const res = await fetch(`${stack.baseUrl}/v1/keys`, { headers: headers() });
    const body = (await res.json()) as any;
    expect(res.status).toBe(401);
    expect(body.error).toEqual({ code: "UNAUTHORIZED", message: "Invalid or missing API key" });
  });

  test("missing scope → 403 naming it", async () => {
    const { api } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["memories:read"] });
    const res = await api.get("/v1/keys");
    expectEnvelopeError(res, 403, "FORBIDDEN");
    expect(res.body.error.message).toBe("Missing required scope: admin");
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
  });
});

describe("rate limits through the gateway", () => {
  test("headers on every authenticated response; 429 with Retry-After past the limit", async () => {
    const { api } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], rate_limit: 3 });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await api.get("/v1/keys"));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(results.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0", "0", "0"]);
    for (const r of results) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("3");
      expect(Number(r.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    }
    expectEnvelopeError(results[3]!, 429, "RATE_LIMITED");
    expect(Number(results[3]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("50 concurrent requests on a key limited to 20/min: exactly 20 × 200 and 30 × 429", async () => {
    const { api } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], rate_limit: 20 });
    const statuses = (await Promise.all(Array.from({ length: 50 }, () => api.get("/v1/keys")))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBe(20);
    expect(statuses.filter((s) => s === 429).length).toBe(30);
  });

  test("requests with invalid keys never touch a real key's budget", async () => {
    const { api, key } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], rate_limit: 5 });
    const forged = key.slice(0, -2) + (key.endsWith("AA") ? "BB" : "AA");
    for (let i = 0; i < 10; i++) await apiClient(stack.baseUrl, forged).get("/v1/keys");
    const res = await api.get("/v1/keys");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("4");
  });
});
