import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "./harness";
import { newTenant, type ApiClient, type ApiResponse } from "./api";

/**
 * What a client can send that is not a well-formed call (prototype-named keys, deep nesting, a
 * method a path does not serve) is answered with the envelope and the right code, never a 5xx.
 */
let baseUrl: string;
let key: string;
let api: ApiClient;

beforeAll(async () => {
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  ({ key, api } = await newTenant(baseUrl, stack.adminKey));
});

const expectEnvelope = (res: ApiResponse, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.meta.request_id).toBe(res.headers.get("x-request-id")!);
};

describe("prototype-named keys are keys like any other", () => {
  const queries = ["__proto__=1&sort=x", "__proto__=x", "sort=x&__proto__=1&__proto__=2", "constructor=1"];
  queries.push("prototype=1&limit=5");
  const paths = ["/v1/tags", "/v1/memories", "/api/v1/tags"];

  test.each(paths)("GET/HEAD %s?__proto__=…: 400 unknown_field", async (path) => {
    for (const query of queries) {
      const res = await api.get(`${path}?${query}`);
      expectEnvelope(res, 400, "VALIDATION_ERROR");
      const field = query.match(/(__proto__|constructor|prototype)/)![1];
      expect(res.body.error.details).toEqual({ field, constraint: "unknown_field" });
      const headers = { Authorization: `Bearer ${key}` };
      const head = await fetch(`${baseUrl}${path}?${query}`, { method: "HEAD", headers });
      expect(head.status).toBe(400);
    }
  });
});
