import { beforeAll, expect, test } from "bun:test";
import { apiClient, newTenant } from "../api";
import { testStack } from "../harness";
import type { Stack } from "../../scripts/stack/launch";

/**
 * A secret key from another origin is refused (403, token_required) in a way the page can read: the preflight of
 * any origin is answered, and the refusal carries the CORS headers. Browsers: test/browser/cors-refusal.test.ts.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await testStack();
}, 90_000);

/** An origin no tenant allows and no token names. */
const unknownOrigin = () => `https://dev-${crypto.randomUUID().slice(0, 8)}.example`;

test("a preflight from an origin nothing allows is answered, so the browser sends the request", async () => {
  const origin = unknownOrigin();
  for (const path of ["/v1/memories", "/api/v1/tags", "/graphql"]) {
    const res = await fetch(stack.baseUrl + path, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    expect(res.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("vary")).toContain("Origin");
  }
});

test("a secret key from another origin: 403 token_required with the CORS headers, on REST and GraphQL", async () => {
  const { key } = await newTenant(stack.baseUrl, stack.adminKey);
  const origin = unknownOrigin();
  const rest = await apiClient(stack.baseUrl, key).raw("GET", "/v1/memories", undefined, { Origin: origin });
  const gql = await apiClient(stack.baseUrl, key).raw(
    "POST",
    "/graphql",
    { query: "{ __typename }" },
    { Origin: origin },
  );
  for (const res of [rest, gql]) {
    expect(res.status).toBe(403);
    expect(res.body.error.details.constraint).toBe("token_required");
    expect(res.body.error.message).toContain("POST /v1/tokens");
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    expect(res.headers.get("vary")).toContain("Origin");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  }
});
