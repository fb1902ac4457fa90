import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiResponse } from "../api";
import { expectEnvelopeError } from "../envelope-helpers";

/**
 * A request no route serves (404, or 405 for a path served with other methods) is an API request like
 * any other: with a key it counts against the key's windows and carries `X-RateLimit-*`; a refused key
 * or a full window answers 401 or 429 first. Without a key there is no window to tell of.
 */
let baseUrl: string;
let adminKey: string;

beforeAll(async () => {
  ({ baseUrl, adminKey } = await testStack());
});

const remaining = (res: ApiResponse) => Number(res.headers.get("x-ratelimit-remaining"));

describe("404 and 405 carry the rate-limit headers of the key that asked", () => {
  test("each one counts: Remaining goes down, Limit and Reset are set", async () => {
    const { api } = await newTenant(baseUrl, adminKey, { rate_limit: 50 });
    const first = await api.raw("PUT", "/v1/tags");
    expectEnvelopeError(first, 405, "METHOD_NOT_ALLOWED");
    expect(first.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(first.headers.get("x-ratelimit-limit")).toBe("50");
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    const second = await api.raw("GET", "/v1/no-such-route");
    expectEnvelopeError(second, 404, "NOT_FOUND");
    expect(second.headers.get("x-ratelimit-limit")).toBe("50");
    expect(remaining(second)).toBe(remaining(first) - 1);
    const third = await api.get("/v1/tags");
    expect(third.status).toBe(200);
    expect(remaining(third)).toBe(remaining(second) - 1);
  });

  test("a full window answers 429 on an unknown path too", async () => {
    const { api } = await newTenant(baseUrl, adminKey, { rate_limit: 2 });
    expect((await api.raw("GET", "/v1/nope")).status).toBe(404);
    expect((await api.raw("DELETE", "/v1/tags")).status).toBe(405);
    const refused = await api.raw("GET", "/v1/nope");
    expectEnvelopeError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(remaining(refused)).toBe(0);
  });

  test("an unknown key is a 401 there as anywhere; no key: 404/405 without rate-limit headers", async () => {
    const unknown = apiClient(baseUrl, `svc_live_${"B".repeat(32)}`);
    expectEnvelopeError(await unknown.raw("GET", "/v1/nope"), 401, "UNAUTHORIZED");
    const anonymous = apiClient(baseUrl);
    const notFound = await anonymous.raw("GET", "/v1/nope");
    expectEnvelopeError(notFound, 404, "NOT_FOUND");
    expect(notFound.headers.get("x-ratelimit-limit")).toBeNull();
    const notAllowed = await anonymous.raw("PUT", "/v1/tags");
    expectEnvelopeError(notAllowed, 405, "METHOD_NOT_ALLOWED");
    expect(notAllowed.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
