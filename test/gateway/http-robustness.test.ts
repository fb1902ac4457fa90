import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import { expectEnvelopeError } from "../envelope-helpers";

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

/** A GraphQL request as sent over the wire: a POST body (object or raw text), or a GET's query string. */
async function graphql(request: { body?: unknown; get?: string }) {
  const { body, get } = request;
  const res = await fetch(`${baseUrl}/graphql${get ?? ""}`, {
    method: get === undefined ? "POST" : "GET",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", Accept: "application/json" },
    body: get !== undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("prototype-named keys are keys like any other", () => {
  const queries = ["__proto__=1&sort=x", "__proto__=x", "sort=x&__proto__=1&__proto__=2", "constructor=1"];
  queries.push("prototype=1&limit=5");
  const paths = ["/v1/tags", "/v1/memories", "/api/v1/tags"];

  test.each(paths)("GET/HEAD %s?__proto__=…: 400 unknown_field", async (path) => {
    for (const query of queries) {
      const res = await api.get(`${path}?${query}`);
      expectEnvelopeError(res, 400, "VALIDATION_ERROR");
      const field = query.match(/(__proto__|constructor|prototype)/)![1];
      expect(res.body.error.details).toEqual({ field, constraint: "unknown_field" });
      const headers = { Authorization: `Bearer ${key}` };
      const head = await fetch(`${baseUrl}${path}?${query}`, { method: "HEAD", headers });
      expect(head.status).toBe(400);
    }
  });

  test("top-level body fields: unknown_field; metadata keys at any level: reserved_key naming the path", async () => {
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const top = await api.post("/v1/memories", `{"content":"x","${name}":{"a":1}}`);
      expectEnvelopeError(top, 400, "VALIDATION_ERROR");
      expect(top.body.error.details).toEqual({ field: name, constraint: "unknown_field" });
      const nested = await api.post("/v1/memories", `{"content":"x","metadata":{"ok":1,"a":[{"${name}":1}]}}`);
      expectEnvelopeError(nested, 400, "VALIDATION_ERROR");
      expect(nested.body.error.details).toEqual({ field: `metadata.a.0.${name}`, constraint: "reserved_key" });
    }
    const entity = await api.post("/v1/entities", '{"name":"n","type":"person","metadata":{"__proto__":{"a":1}}}');
    expect(entity.body.error.details).toEqual({ field: "metadata.__proto__", constraint: "reserved_key" });
    const filter = await api.post("/v1/search", '{"query":"x","metadata":{"constructor":1}}');
    expect(filter.body.error.details).toEqual({ field: "metadata.constructor", constraint: "reserved_key" });
    expect((await api.get("/v1/memories")).body.meta.total).toBe(0);
  });

  test("GraphQL: the same metadata rule, for variables and for literals in the query", async () => {
    const query = "mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }";
    const variables = { i: { content: "x", metadata: JSON.parse('{"__proto__":{"a":1}}') } };
    const viaVariables = await graphql({ body: { query, variables } });
    expect(viaVariables.body.errors[0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "metadata.__proto__", constraint: "reserved_key" },
    });
    const literal = 'mutation { createMemory(input: {content: "x", metadata: {a: {prototype: 1}}}) { id } }';
    const viaLiteral = await graphql({ body: { query: literal } });
    expect(viaLiteral.body.errors[0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "metadata.a.prototype", constraint: "reserved_key" },
    });
  });
});

describe("nesting: at most 32 levels in any JSON a client sends", () => {
  const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
  const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
  const tooDeep = { field: "body", constraint: "max_depth", max: 32 };

  test.each(["/v1/search", "/v1/context"])("%s: 10,000 nested objects, 50,000 arrays, 1 MiB of [[[[", async (path) => {
    for (const filter of [objects(10_000), arrays(50_000)]) {
      const res = await api.post(path, `{"query":"x","metadata":{"k":${filter}}}`);
      expectEnvelopeError(res, 400, "VALIDATION_ERROR");
      expect(res.body.error.details).toEqual(tooDeep);
    }
    const brackets = await api.post(path, `{"query":"x","metadata":{"k":${"[".repeat(1024 * 1024 - 40)}`);
    expect(brackets.body.error.details).toEqual(tooDeep);
  });

  test("below 32 levels, a metadata filter deeper than stored metadata (5) is refused by the contract", async () => {
    for (const path of ["/v1/search", "/v1/context"]) {
      const res = await api.post(path, `{"query":"x","metadata":{"k":${objects(5)}}}`);
      expectEnvelopeError(res, 400, "VALIDATION_ERROR");
      expect(res.body.error.details).toEqual({ field: "metadata", constraint: "max_depth", max: 5 });
      expect((await api.post(path, `{"query":"x","metadata":{"k":${objects(3)}}}`)).status).toBe(200);
    }
  });

  test("GraphQL: a deep `variables` object in a POST body or in a GET's query string → 400 max_depth", async () => {
    const search = "query($i: SearchInput!) { search(input: $i) { results { score } } }";
    const variables = `{"i":{"query":"x","metadata":{"k":${arrays(50_000)}}}}`;
    const body = `{"query":${JSON.stringify(search)},"variables":${variables}}`;
    const post = await graphql({ body });
    expect(post.status).toBe(400);
    expect(post.body.errors[0].extensions).toMatchObject({ code: "VALIDATION_ERROR", details: tooDeep });
    const query = `?query=${encodeURIComponent(search)}`;
    const get = (vars: string) => graphql({ get: `${query}&variables=${encodeURIComponent(vars)}` });
    const deep = await get(`{"i":{"query":"x","metadata":{"k":${objects(40)}}}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "variables", constraint: "max_depth", max: 32 },
    });
    expect((await get(`{"i":{"query":"x"}}`)).body).toEqual({ data: { search: { results: [] } } });
  });
});

describe("a method a path does not serve: 405 with Allow, in the envelope", () => {
  const ID = "0b8f6c1e-5d0a-4f7e-9c39-1c5d7b0e2a11";
  test.each([
    ["PUT", "/v1/tags", "GET, HEAD, POST"],
    ["DELETE", "/v1/tags", "GET, HEAD, POST"],
    ["OPTIONS", "/v1/memories", "GET, HEAD, POST"],
    ["PUT", `/v1/memories/${ID}`, "DELETE, GET, HEAD, PATCH"],
    ["POST", `/api/v1/keys/${ID}`, "DELETE, GET, HEAD, PATCH"],
    ["GET", `/v1/keys/${ID}/rotate`, "POST"],
    ["PATCH", "/v1/search", "POST"],
  ])("%s %s → 405, Allow: %s", async (method, path, allow) => {
    const res = await api.raw(method, path);
    expectEnvelopeError(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body.error.details).toEqual({ allowed: allow.split(", ") });
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  test("a CORS preflight is answered (204) from any origin, before routing; unknown paths stay 404", async () => {
    // As browsers send it: without credentials. The actual request meets the guard (docs/api.md, CORS).
    const preflight = await apiClient(baseUrl).raw("OPTIONS", "/v1/tags", undefined, {
      Origin: "https://app.example",
      "Access-Control-Request-Method": "POST",
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expectEnvelopeError(await api.raw("PUT", "/v1/nope"), 404, "NOT_FOUND");
    expectEnvelopeError(await api.raw("OPTIONS", "/v1/tags/x/y"), 404, "NOT_FOUND");
  });
});
