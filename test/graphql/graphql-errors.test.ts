import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, type ApiClient, type ApiResponse } from "../api";
import { expectGqlError, gqlClient, gqlTenant, UNKNOWN_ID, type Gql, type GqlResponse } from "./graphql-helpers";

/**
 * Issue 5: GraphQL errors carry REST's codes, messages and details, plus the request id;
 * scopes per field; 401/429 as REST.
 */
let gql: Gql;
let api: ApiClient;
let baseUrl: string;
let key: string;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  api = t.api;
  key = t.key;
  baseUrl = (await testStack()).baseUrl;
});

/** The GraphQL error of `field` says exactly what REST's envelope says for the same operation. */
function expectSameError(rest: ApiResponse, r: GqlResponse, field: string) {
  expect(rest.status).toBeGreaterThanOrEqual(400);
  expectGqlError(r, rest.body.error.code, rest.body.error.message, rest.body.error.details, [field]);
  expect(r.status).toBe(200); // an execution error: the field is null, the HTTP request succeeded
  expect(r.data?.[field]).toBeNull();
}

describe("errors of the services keep REST's code, message and details", () => {
  test("key, updateKey and rotateKey: an unknown, malformed or other tenant's id is REST's 404", async () => {
    const other = await gqlTenant();
    for (const id of [UNKNOWN_ID, "not-a-key", other.keyId]) {
      const cases: [ApiResponse, string, string][] = [
        [await api.get(`/v1/keys/${id}`), `query($id: ID!) { key(id: $id) { id } }`, "key"],
        [
          await api.patch(`/v1/keys/${id}`, { name: "x" }),
          `mutation($id: ID!) { updateKey(id: $id, input: { name: "x" }) { id } }`,
          "updateKey",
        ],
        [await api.post(`/v1/keys/${id}/rotate`, {}), `mutation($id: ID!) { rotateKey(id: $id) { key } }`, "rotateKey"],
      ];
      for (const [rest, query, field] of cases) {
        expect(rest.body.error).toEqual({ code: "NOT_FOUND", message: "API key not found" });
        expectSameError(rest, await gql.raw(query, { id }), field);
      }
    }
    expect((await other.api.get("/v1/memories")).status).toBe(200); // not rotated
  });

  test("updateKey and rotateKey validation keeps REST's details", async () => {
    const id = (await api.post("/v1/keys", { name: "v", scopes: ["memories:read"] })).body.data.id;
    expectSameError(
      await api.patch(`/v1/keys/${id}`, { expires_at: "2001-01-01T00:00:00Z" }),
      await gql.raw(`mutation($id: ID!) { updateKey(id: $id, input: { expiresAt: "2001-01-01T00:00:00Z" }) { id } }`, {
        id,
      }),
      "updateKey",
    );
    expectSameError(
      await api.post(`/v1/keys/${id}/rotate`, { grace_seconds: 86_401 }),
      await gql.raw(`mutation($id: ID!) { rotateKey(id: $id, graceSeconds: 86401) { key } }`, { id }),
      "rotateKey",
    );
  });

  test("VALIDATION_ERROR of inputs names the REST field and constraint", async () => {
    const cases: [ApiResponse, string, Record<string, unknown>][] = [
      [
        await api.post("/v1/memories", { content: "" }),
        `mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }`,
        { i: { content: "" } },
      ],
      [
        await api.post("/v1/memories", { content: "x".repeat(100_001) }),
        `mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }`,
        { i: { content: "x".repeat(100_001) } },
      ],
      [
        await api.post("/v1/memories", { content: "deep", metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } } }),
        `mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }`,
        { i: { content: "deep", metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } } } },
      ],
      [
        await api.post("/v1/memories", { content: "x", parent_memory_id: "not-a-uuid" }),
        `mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }`,
        { i: { content: "x", parentMemoryId: "not-a-uuid" } },
      ],
      [
        await api.post("/v1/memories", { content: "x", parent_memory_id: UNKNOWN_ID }),
        `mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }`,
        { i: { content: "x", parentMemoryId: UNKNOWN_ID } },
      ],
      [
        await api.post("/v1/tags", { name: "y".repeat(51) }),
        `mutation($i: CreateTagInput!) { createTag(input: $i) { id } }`,
        { i: { name: "y".repeat(51) } },
      ],
      [
        await api.post("/v1/tags", { name: "c", color: "red" }),
        `mutation($i: CreateTagInput!) { createTag(input: $i) { id } }`,
        { i: { name: "c", color: "red" } },
      ],
      [
        await api.post("/v1/entities", { name: "", type: "person" }),
        `mutation($i: CreateEntityInput!) { createEntity(input: $i) { id } }`,
        { i: { name: "", type: "PERSON" } },
      ],
    ];
    const fields = [];
    for (const [rest, query, variables] of cases) {
      const r = await gql.raw(query, variables);
      const field = Object.keys(r.data ?? {})[0]!;
      expectSameError(rest, r, field);
      expect(r.errors![0]!.extensions.code).toBe("VALIDATION_ERROR");
      fields.push(r.errors![0]!.extensions.details);
    }
    expect(fields).toContainEqual({ field: "content", constraint: "required" });
    expect(fields).toContainEqual({ field: "parent_memory_id", constraint: "format" });
    expect(fields).toContainEqual({ field: "metadata", constraint: "max_depth", max: 5 });
  });

  test("limit and offset follow REST's ranges", async () => {
    expectSameError(
      await api.get("/v1/memories?limit=500"),
      await gql.raw(`{ memories(limit: 500) { total } }`),
      "memories",
    );
    expectSameError(
      await api.get("/v1/memories?limit=0"),
      await gql.raw(`{ memories(limit: 0) { total } }`),
      "memories",
    );
    expectSameError(await api.get("/v1/tags?offset=-1"), await gql.raw(`{ tags(offset: -1) { total } }`), "tags");
    expectGqlError(
      await gql.raw(`{ entities(limit: 101) { total } }`),
      "VALIDATION_ERROR",
      "limit must be <= 100",
      { field: "limit", constraint: "maximum", max: 100 },
      ["entities"],
    );
  });

  test("conflicts: a duplicate tag name, an unknown tag to attach", async () => {
    const { api: own, gql: ownGql } = await gqlTenant();
    await own.post("/v1/tags", { name: "Dup" });
    expectSameError(
      await own.post("/v1/tags", { name: "dup" }),
      await ownGql.raw(`mutation { createTag(input: { name: "DUP" }) { id } }`),
      "createTag",
    );
    const m = (await own.post("/v1/memories", { content: "m" })).body.data;
    expectSameError(
      await own.post(`/v1/memories/${m.id}/tags`, { tag_ids: [UNKNOWN_ID] }),
      await ownGql.raw(`mutation($m: ID!, $t: [ID!]!) { attachTags(memoryId: $m, tagIds: $t) { added } }`, {
        m: m.id,
        t: [UNKNOWN_ID],
      }),
      "attachTags",
    );
  });

  test("NOT_FOUND for unknown and malformed ids, as REST", async () => {
    const pairs: [string, string, string][] = [
      [`/v1/memories/${UNKNOWN_ID}`, `{ memory(id: "${UNKNOWN_ID}") { id } }`, "memory"],
      ["/v1/memories/nope", `{ memory(id: "nope") { id } }`, "memory"],
      [`/v1/tags/${UNKNOWN_ID}`, `{ tag(id: "${UNKNOWN_ID}") { id } }`, "tag"],
      ["/v1/tags/x", `{ tag(id: "x") { id } }`, "tag"],
      [`/v1/entities/${UNKNOWN_ID}`, `{ entity(id: "${UNKNOWN_ID}") { id } }`, "entity"],
    ];
    for (const [path, query, field] of pairs) {
      const rest = await api.get(path);
      expect(rest.body.error.code).toBe("NOT_FOUND");
      expectSameError(rest, await gql.raw(query), field);
    }
    expectSameError(
      await api.patch(`/v1/memories/${UNKNOWN_ID}`, { content: "x" }),
      await gql.raw(`mutation { updateMemory(id: "${UNKNOWN_ID}", input: { content: "x" }) { id } }`),
      "updateMemory",
    );
    expectSameError(
      await api.delete(`/v1/tags/${UNKNOWN_ID}`),
      await gql.raw(`mutation { deleteTag(id: "${UNKNOWN_ID}") { id } }`),
      "deleteTag",
    );
    expectSameError(
      await api.delete("/v1/keys/nope"),
      await gql.raw(`mutation { revokeKey(id: "nope") { id } }`),
      "revokeKey",
    );
    expectGqlError(
      await gql.raw(`{ memory(id: "${UNKNOWN_ID}") { id } }`),
      "NOT_FOUND",
      "Memory not found",
      undefined,
      ["memory"],
    );
  });

  test("another tenant's memory is NOT_FOUND, as if it did not exist", async () => {
    const other = await gqlTenant();
    const m = (await other.api.post("/v1/memories", { content: "theirs" })).body.data;
    expectGqlError(
      await gql.raw(`query($id: ID!) { memory(id: $id) { id } }`, { id: m.id }),
      "NOT_FOUND",
      "Memory not found",
      undefined,
      ["memory"],
    );
    expect(
      (await gql.request(`query($id: ID!) { memories(filter: { parentMemoryId: $id }) { total } }`, { id: m.id }))
        .memories.total,
    ).toBe(0);
  });

  test("one failing root field does not void the others", async () => {
    const r = await gql.raw(`{ memories { total } memory(id: "${UNKNOWN_ID}") { id } }`);
    expect(r.data).toEqual({ memories: { total: expect.any(Number) }, memory: null });
    expect(r.errors!.map((e) => e.extensions.code)).toEqual(["NOT_FOUND"]);
  });
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

describe("scopes are checked per field, with the operation's own scope", () => {
  test("a memories:read key reads memories but gets FORBIDDEN on createTag, keys and usage", async () => {
    const reader = await gqlTenant({ scopes: ["memories:read"] });
    const r = await reader.gql.raw(`{ memories { total } keys { total } }`);
    expect(r.data).toEqual({ memories: { total: 0 }, keys: null });
    expectGqlError(r, "FORBIDDEN", "Missing required scope: admin", undefined, ["keys"]);
    const w = await reader.gql.raw(`mutation { createTag(input: { name: "nope" }) { id } }`);
    expectGqlError(w, "FORBIDDEN", "Missing required scope: memories:write", undefined, ["createTag"]);
    expect(w.status).toBe(200);
    expectGqlError(
      await reader.gql.raw(`{ usage { totals { requests } } }`),
      "FORBIDDEN",
      "Missing required scope: admin",
      undefined,
      ["usage"],
    );
    expectGqlError(
      await reader.gql.raw(`mutation { createKey(input: { name: "k" }) { key } }`),
      "FORBIDDEN",
      "Missing required scope: admin",
      undefined,
      ["createKey"],
    );
    expectGqlError(
      await reader.gql.raw(`mutation { revokeKey(id: "${UNKNOWN_ID}") { id } }`),
      "FORBIDDEN",
      "Missing required scope: admin",
      undefined,
      ["revokeKey"],
    );
    // REST says the same for the same key.
    const rest = await reader.api.post("/v1/tags", { name: "nope" });
    expect(rest.body.error).toEqual({ code: "FORBIDDEN", message: "Missing required scope: memories:write" });
  });

  test("nested fields check their own operation: a write-only key creates, but cannot read the parent", async () => {
    const owner = await gqlTenant();
    const writer = await gqlTenant({ scopes: ["memories:write"], tenant: owner.tenant });
    const root = (await owner.api.post("/v1/memories", { content: "root" })).body.data;
    const r = await writer.gql.raw(
      `mutation($p: ID!) { createMemory(input: { content: "kid", parentMemoryId: $p }) { content parent { id } } }`,
      { p: root.id },
    );
    expect(r.data).toEqual({ createMemory: { content: "kid", parent: null } });
    expectGqlError(r, "FORBIDDEN", "Missing required scope: memories:read", undefined, ["createMemory", "parent"]);
    expectGqlError(
      await writer.gql.raw(`{ memories { total } }`),
      "FORBIDDEN",
      "Missing required scope: memories:read",
      undefined,
      ["memories"],
    );
  });

  test("admin-only keys: keys and usage work, memories do not", async () => {
    const admin = await gqlTenant({ scopes: ["admin"] });
    const r = await admin.gql.raw(`{ keys { total } memories { total } }`);
    expect(r.data).toEqual({ keys: { total: 1 }, memories: null });
    expectGqlError(r, "FORBIDDEN", "Missing required scope: memories:read", undefined, ["memories"]);
  });
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
