import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient, ApiResponse } from "../api";
import { createMemory, ok, tenant } from "../memories/memory-helpers";
import { expectError } from "../envelope-helpers";

/**
 * The path alone names the resource a request acts on. A body or query field that a path param fills is
 * refused like any unknown field, and nothing changes: neither the resource in the path nor the one the
 * field names.
 */
let api: ApiClient;
let a: string;
let c: string;
let t1: string;
let t2: string;
let e1: string;
let e2: string;

beforeAll(async () => {
  api = (await tenant()).api;
  a = (await createMemory(api, { content: "memory A" })).id;
  c = (await createMemory(api, { content: "memory C" })).id;
  t1 = (await ok(api.post("/v1/tags", { name: "first" }))).id;
  t2 = (await ok(api.post("/v1/tags", { name: "second" }))).id;
  e1 = (await ok(api.post("/v1/entities", { name: "Ada", type: "person" }))).id;
  e2 = (await ok(api.post("/v1/entities", { name: "Grace", type: "person" }))).id;
  // Links for the DELETE cases to (not) remove.
  for (const m of [a, c]) {
    await ok(api.post(`/v1/memories/${m}/tags`, { tag_ids: [t1] }));
    await ok(api.post(`/v1/entities/${e1}/memories`, { memory_ids: [m] }));
  }
});

const refusedField = (res: ApiResponse, field: string) =>
  expectError(res, 400, "VALIDATION_ERROR", `${field} is not an accepted field`, {
    field,
    constraint: "unknown_field",
  });

/** Every record of the tenant, as GET answers it: a refused request must leave all of them as they were. */
async function snapshot() {
  const get = (path: string) => ok(api.get(path));
  return {
    memories: await Promise.all([a, c].map((id) => get(`/v1/memories/${id}`))),
    tags: await Promise.all([t1, t2].map((id) => get(`/v1/tags/${id}`))),
    entities: await Promise.all([e1, e2].map((id) => get(`/v1/entities/${id}`))),
  };
}

describe("a path param repeated in the body is refused, and changes nothing", () => {
  const cases: [string, () => Promise<ApiResponse>, string][] = [
    ["PATCH /v1/memories/{id} with id", () => api.patch(`/v1/memories/${a}`, { id: c, content: "changed" }), "id"],
    ["PATCH /v1/tags/{id} with id", () => api.patch(`/v1/tags/${t1}`, { id: t2, name: "renamed" }), "id"],
    ["PATCH /v1/entities/{id} with id", () => api.patch(`/v1/entities/${e1}`, { id: e2, name: "Bob" }), "id"],
    [
      "POST /v1/memories/{id}/tags with memory_id",
      () => api.post(`/v1/memories/${a}/tags`, { memory_id: c, tag_ids: [t2] }),
      "memory_id",
    ],
    [
      "POST /v1/entities/{id}/memories with id",
      () => api.post(`/v1/entities/${e2}/memories`, { id: e1, memory_ids: [a] }),
      "id",
    ],
  ];
  for (const [name, send, field] of cases) {
    test(name, async () => {
      const before = await snapshot();
      refusedField(await send(), field);
      expect(await snapshot()).toEqual(before);
    });
  }
});

describe("a path param repeated in the query is refused, and changes nothing", () => {
  const cases: [string, () => Promise<ApiResponse>, string][] = [
    ["DELETE /v1/memories/{id} with id", () => api.delete(`/v1/memories/${a}?id=${c}`), "id"],
    ["GET /v1/memories/{id} with id", () => api.get(`/v1/memories/${a}?id=${c}`), "id"],
    [
      "DELETE /v1/memories/{id}/tags/{tagId} with memory_id",
      () => api.delete(`/v1/memories/${a}/tags/${t1}?memory_id=${c}`),
      "memory_id",
    ],
    [
      "DELETE /v1/memories/{id}/tags/{tagId} with tag_id",
      () => api.delete(`/v1/memories/${a}/tags/${t1}?tag_id=${t2}`),
      "tag_id",
    ],
    [
      "DELETE /v1/entities/{id}/memories/{memoryId} with memory_id",
      () => api.delete(`/v1/entities/${e1}/memories/${a}?memory_id=${c}`),
      "memory_id",
    ],
  ];
  for (const [name, send, field] of cases) {
    test(name, async () => {
      const before = await snapshot();
      refusedField(await send(), field);
      expect(await snapshot()).toEqual(before);
    });
  }
});

test("the same requests without the repeated field act on the resource in the path", async () => {
  expect((await ok(api.patch(`/v1/tags/${t2}`, { name: "renamed" }))).name).toBe("renamed");
  expect((await ok(api.delete(`/v1/memories/${c}/tags/${t1}`))).removed).toBe(true);
  expect((await ok(api.get(`/v1/memories/${a}`))).tags.map((t: { id: string }) => t.id)).toEqual([t1]);
});
