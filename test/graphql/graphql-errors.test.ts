import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient, ApiResponse } from "../api";
import { expectGqlError, gqlTenant, UNKNOWN_ID, type Gql, type GqlResponse } from "./graphql-helpers";

/** Errors of the services in GraphQL: REST's codes, messages and details, plus the request id. */
let gql: Gql;
let api: ApiClient;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  api = t.api;
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
