import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import type { ApiClient } from "../api";
import { expectGqlError, gqlTenant, type Gql } from "./graphql-helpers";

/** Request errors (syntax, schema, variables, bodies): VALIDATION_ERROR with details, HTTP 400. */
let gql: Gql;
let api: ApiClient;
let baseUrl: string;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  api = t.api;
  baseUrl = (await testStack()).baseUrl;
});

describe("request errors are VALIDATION_ERROR with details (HTTP 400)", () => {
  test("syntax error", async () => {
    const r = await gql.raw(`{ memories { total `);
    expect(r.status).toBe(400);
    expectGqlError(r, "VALIDATION_ERROR", "Syntax Error: Expected Name, found <EOF>.", {
      field: "query",
      constraint: "syntax",
    });
  });

  test("unknown field, wrong argument type", async () => {
    const r = await gql.raw(`{ memories { total nope } }`);
    expect(r.status).toBe(400);
    expectGqlError(r, "VALIDATION_ERROR", 'Cannot query field "nope" on type "MemoryPage".', {
      field: "query",
      constraint: "schema",
    });
    expectGqlError(
      await gql.raw(`{ memories(limit: "ten") { total } }`),
      "VALIDATION_ERROR",
      'Int cannot represent non-integer value: "ten"',
      { field: "query", constraint: "schema" },
    );
  });

  test("a missing required input field or argument names it", async () => {
    expectGqlError(
      await gql.raw(`mutation { createTag(input: {}) { id } }`),
      "VALIDATION_ERROR",
      'Field "CreateTagInput.name" of required type "String!" was not provided.',
      { field: "name", constraint: "required" },
    );
    expectGqlError(
      await gql.raw(`{ memory { id } }`),
      "VALIDATION_ERROR",
      'Field "memory" argument "id" of type "ID!" is required, but it was not provided.',
      { field: "query", constraint: "schema" },
    );
    const r = await gql.raw(`mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }`, {
      i: { tier: "LONG" },
    });
    expect(r.errors![0]!.extensions.details).toEqual({ field: "content", constraint: "required" });
  });

  test("a body over the gateway's limit or not JSON: VALIDATION_ERROR as REST says it", async () => {
    const { key } = await gqlTenant();
    const post = (body: string) =>
      fetch(`${baseUrl}/graphql`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body,
      });
    const big = await post(
      JSON.stringify({ query: `{ memories { total } }`, variables: { pad: "x".repeat(1024 * 1024) } }),
    );
    expect(big.status).toBe(400);
    const bigBody = await big.json();
    const rest = await api.post("/v1/memories", { content: "x".repeat(1024 * 1024) });
    expect(bigBody).toEqual({
      errors: [
        {
          message: rest.body.error.message,
          extensions: {
            code: "VALIDATION_ERROR",
            details: rest.body.error.details,
            request_id: big.headers.get("x-request-id"),
          },
        },
      ],
    });
    const bad = await post("{ not json");
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "body", constraint: "json" },
    });
    expect(bad.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    const lone = await post('{"query":"{ memories { total } }","variables":{"c":"\\ud800"}}');
    expect(lone.status).toBe(200); // a well-formed request, without Accept: application/json (see below)
    expect((await lone.json()).errors[0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "variables.c", constraint: "unicode" },
    });
  });

  test("a bad variable value names the field as REST does", async () => {
    const r = await gql.raw(`query($f: MemoryFilter) { memories(filter: $f) { total } }`, {
      f: { createdAfter: "yesterday" },
    });
    expect(r.status).toBe(400);
    expect(r.errors![0]!.extensions).toEqual({
      code: "VALIDATION_ERROR",
      details: { field: "created_after", constraint: "type" },
      request_id: r.headers.get("x-request-id")!,
    });
    const e = await gql.raw(`query($t: Tier) { memories(filter: { tier: $t }) { total } }`, { t: "huge" });
    expect(e.errors![0]!.extensions.details).toEqual({ field: "t", constraint: "type" });
  });
});
