import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import type { ApiClient } from "../api";
import { gqlTenant } from "./graphql-helpers";

/** GraphQL over HTTP: the status of a refusal by media type, and 406 for what /graphql cannot answer. */
let api: ApiClient;
let baseUrl: string;
let key: string;

beforeAll(async () => {
  const t = await gqlTenant();
  api = t.api;
  key = t.key;
  baseUrl = (await testStack()).baseUrl;
});

describe("HTTP status by media type (GraphQL over HTTP), 406 in the envelope", () => {
  const GRAPHQL_RESPONSE = "application/graphql-response+json";
  const send = (body: unknown, accept?: string, method = "POST") =>
    fetch(`${baseUrl}/graphql`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/json",
        ...(accept ? { Accept: accept } : {}),
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const fragment = (i: number) => `fragment F${i + 1} on Query { ${i ? `...F${i} `.repeat(3) : "__typename"} }`;
  const fanOut = Array.from({ length: 12 }, (_, i) => fragment(i));

  const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: tags { total }`).join(" ");
  /** A request of each kind GraphQL refuses, and the `details.constraint` it is refused with. */
  const refusals: [string, unknown, string][] = [
    ["syntax", { query: `{ memories { total ` }, "syntax"],
    ["unknown field", { query: `{ memories { nope } }` }, "schema"],
    ["tokens", { query: `{ memories { ${"total ".repeat(2001)} } }` }, "max_tokens"],
    ["depth", { query: `{ memories { items { ${"parent { ".repeat(10)}id${" }".repeat(10)} } } }` }, "max_depth"],
    ["aliases", { query: `{ ${aliases} }` }, "max_aliases"],
    ["cost", { query: `{ ...F12 } ${fanOut.join(" ")}` }, "max_cost"],
    ["directives", { query: `{ memories { ${"total @skip(if: false) ".repeat(51)} } }` }, "max_directives"],
    ["service calls", { query: `{ memories { items { children { items { children { total } } } } } }` }, "max_calls"],
    ["fragment cycle", { query: `{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }` }, "schema"],
    ["field merging", { query: `{ memories { items { a: id a: content } } }` }, "schema"],
    ["variable", { query: `query($t: Tier) { memories(filter: {tier: $t}) { total } }`, variables: { t: 1 } }, "type"],
    ["lone surrogate", '{"query":"{ memories { total } }","variables":{"c":"\\ud800"}}', "unicode"],
  ];
  const media: [string | undefined, number, string][] = [
    [GRAPHQL_RESPONSE, 400, GRAPHQL_RESPONSE],
    [`${GRAPHQL_RESPONSE}, application/json;q=0.9`, 400, GRAPHQL_RESPONSE],
    ["application/json", 200, "application/json"],
    [undefined, 200, "application/json"],
    ["*/*", 200, "application/json"],
  ];

  test.each(refusals)("%s: 400 as graphql-response+json, 200 as application/json", async (_, body, reason) => {
    for (const [accept, status, type] of media) {
      const res = await send(body, accept);
      const got = { accept, status: res.status, type: res.headers.get("content-type") };
      expect(got).toEqual({ accept, status, type: `${type}; charset=utf-8` });
      const json = await res.json();
      expect(json.data).toBeUndefined();
      const requestId = res.headers.get("x-request-id");
      const expected = { code: "VALIDATION_ERROR", request_id: requestId };
      for (const { extensions } of json.errors) expect(extensions).toMatchObject(expected);
      expect(json.errors.map((e: any) => e.extensions.details?.constraint)).toContain(reason);
    }
  });

  test("a body that is no GraphQL request (a batch, not JSON, too large): 400 in every media type", async () => {
    const big = JSON.stringify({ query: `{ memories { total } }`, variables: { pad: "x".repeat(1024 * 1024) } });
    for (const accept of [GRAPHQL_RESPONSE, "application/json"]) {
      const bodies = [
        [`[{"query":"{ tags { total } }"}]`, "type"],
        ["{ not json", "json"],
        [big, "max_bytes"],
      ];
      for (const [body, constraint] of bodies) {
        const res = await send(body, accept);
        expect(res.status).toBe(400);
        expect(res.headers.get("content-type")).toBe(`${accept}; charset=utf-8`);
        const { errors } = await res.json();
        const details = { field: "body", constraint };
        expect(errors[0].extensions).toMatchObject({ code: "VALIDATION_ERROR", details });
      }
    }
  });

  test("no media type /graphql answers with: 406 in the envelope, before the operation runs", async () => {
    const allowed = [GRAPHQL_RESPONSE, "application/json", "text/event-stream", "multipart/mixed"];
    const requests = [
      send({ query: `mutation { createTag(input: { name: "not-acceptable" }) { id } }` }, "application/xml"),
      send({ query: `{ tags { total } }` }, "application/json; charset=iso-8859-1"),
      fetch(`${baseUrl}/graphql?query=${encodeURIComponent("{ tags { total } }")}`, {
        headers: { Authorization: `Bearer ${key}`, Accept: "text/plain" },
      }),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.status).toBe(406);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      expect(await res.json()).toEqual({
        error: {
          code: "NOT_ACCEPTABLE",
          message: `Accept names no media type /graphql answers with: ${allowed.join(", ")}`,
          details: { field: "accept", constraint: "enum", allowed },
        },
        meta: { request_id: res.headers.get("x-request-id") },
      });
    }
    expect((await api.get("/v1/tags?search=not-acceptable")).body.meta.total).toBe(0);
  });

  test("a subscription asked for as one JSON document: 406 in the envelope, naming the stream types", async () => {
    const res = await send({ query: `subscription { memoryEvents { type } }` }, "application/json");
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      error: {
        code: "NOT_ACCEPTABLE",
        message: "A subscription is answered as a stream",
        details: { field: "accept", constraint: "enum", allowed: ["text/event-stream", "multipart/mixed"] },
      },
      meta: { request_id: res.headers.get("x-request-id") },
    });
  });
});
