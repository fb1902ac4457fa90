import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient } from "../api";
import { gqlClient, gqlTenant } from "./graphql-helpers";

/** The gateway's guard in front of /graphql: 401 and 429 in REST's envelope; one HTTP request counts once. */
let baseUrl: string;

beforeAll(async () => {
  baseUrl = (await testStack()).baseUrl;
});

describe("authentication and rate limits: the gateway's guard, REST's envelope", () => {
  test("no key or a bad key: HTTP 401 with the same envelope as REST", async () => {
    for (const key of [undefined, "svc_live_" + "a".repeat(32), "garbage"]) {
      const r = await gqlClient(baseUrl, key).raw(`{ memories { total } }`);
      const rest = await apiClient(baseUrl, key).get("/v1/memories");
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        error: { code: "UNAUTHORIZED", message: "Invalid or missing API key" },
        meta: { request_id: r.headers.get("x-request-id") },
      });
      expect(r.body.error).toEqual(rest.body.error);
    }
    // Introspection is for authenticated callers only.
    expect((await gqlClient(baseUrl).raw(`{ __schema { queryType { name } } }`)).status).toBe(401);
  });

  test("each HTTP request counts once, however many operations it runs; over the limit: HTTP 429 as REST", async () => {
    const limited = await gqlTenant({ rate_limit: 3 });
    const big =
      "{ memories(limit: 5) { total items { id tags { id } parent { id } } } tags { total } entities { total } }";
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await limited.gql.raw(big);
      expect(r.status).toBe(200);
      remaining.push(r.headers.get("x-ratelimit-remaining")!);
      expect(r.headers.get("x-ratelimit-limit")).toBe("3");
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const over = await limited.gql.raw(big);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      error: {
        code: "RATE_LIMITED",
        message: "Rate limit exceeded, retry after the reset time",
        details: { retry_after: expect.any(Number) },
      },
      meta: { request_id: over.headers.get("x-request-id") },
    });
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    const rest = await limited.api.get("/v1/memories");
    expect(rest.status).toBe(429);
    expect(rest.body.error.code).toBe("RATE_LIMITED");
  });
});
