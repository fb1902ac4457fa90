import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { createMemory, expectNotFound, ids, listAll, ok, tenant, UNKNOWN_ID } from "../memories/memory-helpers";
import { expectError } from "../envelope-helpers";

/** Entity ↔ memory links: link, unlink, the memory's `entity_ids`, `?entity_id=` and deletes on either side. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

const entity = async (client: ApiClient, name: string, body: Record<string, unknown> = {}) =>
  ok(client.post("/v1/entities", { name, type: "person", ...body }));
const count = async (client: ApiClient, id: string) =>
  (await ok(client.get(`/v1/entities/${id}`))).memory_count as number;
const entityIdsOf = async (client: ApiClient, memoryId: string) =>
  (await ok(client.get(`/v1/memories/${memoryId}`))).entity_ids as string[];

describe("POST /v1/entities/:id/memories", () => {
  test("links memories; already linked ones and repeated ids are skipped / counted once", async () => {
    const e = await entity(api, "Linker");
    const [m1, m2, m3] = [await createMemory(api), await createMemory(api), await createMemory(api)];
    expect(await ok(api.post(`/v1/entities/${e.id}/memories`, { memory_ids: [m1.id, m2.id, m1.id] }))).toEqual({
      entity_id: e.id,
      added: 2,
      skipped: 0,
      memory_count: 2,
    });
    expect(await ok(api.post(`/v1/entities/${e.id}/memories`, { memory_ids: [m2.id, m3.id] }))).toEqual({
      entity_id: e.id,
      added: 1,
      skipped: 1,
      memory_count: 3,
    });
    expect(await count(api, e.id)).toBe(3);
    for (const m of [m1, m2, m3]) expect(await entityIdsOf(api, m.id)).toEqual([e.id]);
    // A memory's updated_at is about its own fields; linking does not change it.
    expect((await ok(api.get(`/v1/memories/${m1.id}`))).updated_at).toBe(m1.updated_at);
  });

  test("a memory read lists every linked entity, sorted by id", async () => {
    const m = await createMemory(api);
    const es = [
      await entity(api, "Multi 1"),
      await entity(api, "Multi 2"),
      await entity(api, "Multi 3", { type: "place" }),
    ];
    for (const e of es) await ok(api.post(`/v1/entities/${e.id}/memories`, { memory_ids: [m.id] }));
    expect(await entityIdsOf(api, m.id)).toEqual(ids(es).sort());
  });

  test("all or nothing: any unknown memory → 404 naming it, and nothing is linked", async () => {
    const e = await entity(api, "Atomic");
    const m = await createMemory(api);
    expectError(
      await api.post(`/v1/entities/${e.id}/memories`, { memory_ids: [m.id, UNKNOWN_ID] }),
      404,
      "NOT_FOUND",
      "Memory not found",
      { missing: [UNKNOWN_ID] },
    );
    expect(await count(api, e.id)).toBe(0);
    expect(await entityIdsOf(api, m.id)).toEqual([]);
  });

  test("unknown or malformed entity → 404", async () => {
    const m = await createMemory(api);
    expectNotFound(await api.post(`/v1/entities/${UNKNOWN_ID}/memories`, { memory_ids: [m.id] }), "Entity");
    expectNotFound(await api.post("/v1/entities/nope/memories", { memory_ids: [m.id] }), "Entity");
  });

  test("memory_ids: 1 to 100 UUIDs", async () => {
    const e = await entity(api, "Bounds");
    const path = `/v1/entities/${e.id}/memories`;
    expectError(await api.post(path, {}), 400, "VALIDATION_ERROR", "memory_ids is required", {
      field: "memory_ids",
      constraint: "required",
    });
    expectError(
      await api.post(path, { memory_ids: [] }),
      400,
      "VALIDATION_ERROR",
      "memory_ids must have at least 1 item(s)",
      { field: "memory_ids", constraint: "min_items", min: 1 },
    );
    expectError(
      await api.post(path, { memory_ids: Array.from({ length: 101 }, () => UNKNOWN_ID) }),
      400,
      "VALIDATION_ERROR",
      "memory_ids must have at most 100 items",
      {
        field: "memory_ids",
        constraint: "max_items",
        max: 100,
      },
    );
    expectError(
      await api.post(path, { memory_ids: ["bad"] }),
      400,
      "VALIDATION_ERROR",
      "memory_ids.0 has an invalid format (expected uuid)",
      { field: "memory_ids.0", constraint: "format" },
    );
    expectError(await api.post(path, { memory_ids: "x" }), 400, "VALIDATION_ERROR", "memory_ids must be array", {
      field: "memory_ids",
      constraint: "type",
    });
    expectError(
      await api.post(path, { memory_ids: [UNKNOWN_ID], extra: 1 }),
      400,
      "VALIDATION_ERROR",
      "extra is not an accepted field",
      { field: "extra", constraint: "unknown_field" },
    );
    // 100 is accepted.
    const many = await Promise.all(Array.from({ length: 100 }, () => createMemory(api)));
    expect(await ok(api.post(path, { memory_ids: ids(many) }))).toEqual({
      entity_id: e.id,
      added: 100,
      skipped: 0,
      memory_count: 100,
    });
  });

  test("POST /v1/entities with memory_ids links them at creation; unknown ones → 400 exists, no entity", async () => {
    const t = (await tenant()).api;
    const [m1, m2] = [await createMemory(t), await createMemory(t)];
    const e = await entity(t, "Born linked", { memory_ids: [m1.id, m2.id, m2.id] });
    expect(e.memory_count).toBe(2);
    expect(await entityIdsOf(t, m2.id)).toEqual([e.id]);
    expectError(
      await t.post("/v1/entities", { name: "Never", type: "person", memory_ids: [m1.id, UNKNOWN_ID] }),
      400,
      "VALIDATION_ERROR",
      "memory_ids must name existing memories",
      {
        field: "memory_ids",
        constraint: "exists",
        missing: [UNKNOWN_ID],
      },
    );
    expect((await t.get("/v1/entities")).body.meta.total).toBe(1);
    expect(await entityIdsOf(t, m1.id)).toEqual([e.id]);
    expect((await ok(t.post("/v1/entities", { name: "Never", type: "person" }))).name).toBe("Never");
  });

  test("concurrent links of the same memories count each once", async () => {
    const e = await entity(api, "Concurrent");
    const ms = await Promise.all(Array.from({ length: 5 }, () => createMemory(api)));
    const results = await Promise.all(
      Array.from({ length: 10 }, () => ok(api.post(`/v1/entities/${e.id}/memories`, { memory_ids: ids(ms) }))),
    );
    expect(results.reduce((n, r) => n + r.added, 0)).toBe(5);
    expect(await count(api, e.id)).toBe(5);
  });
});

describe("DELETE /v1/entities/:id/memories/:memoryId", () => {
  test("removed: true, then removed: false (idempotent)", async () => {
    const e = await entity(api, "Unlinker");
    const m = await createMemory(api);
    await ok(api.post(`/v1/entities/${e.id}/memories`, { memory_ids: [m.id] }));
    expect(await ok(api.delete(`/v1/entities/${e.id}/memories/${m.id}`))).toEqual({
      entity_id: e.id,
      memory_id: m.id,
      removed: true,
    });
    expect(await count(api, e.id)).toBe(0);
    expect(await entityIdsOf(api, m.id)).toEqual([]);
    expect(await ok(api.delete(`/v1/entities/${e.id}/memories/${m.id}`))).toEqual({
      entity_id: e.id,
      memory_id: m.id,
      removed: false,
    });
  });

  test("unknown or malformed entity or memory → 404", async () => {
    const e = await entity(api, "Unlink 404");
    const m = await createMemory(api);
    expectNotFound(await api.delete(`/v1/entities/${UNKNOWN_ID}/memories/${m.id}`), "Entity");
    expectNotFound(await api.delete(`/v1/entities/bad/memories/${m.id}`), "Entity");
    expectError(await api.delete(`/v1/entities/${e.id}/memories/${UNKNOWN_ID}`), 404, "NOT_FOUND", "Memory not found", {
      missing: [UNKNOWN_ID],
    });
    expectNotFound(await api.delete(`/v1/entities/${e.id}/memories/bad`));
  });
});

describe("entity_id filter and deletes", () => {
  test("GET /v1/memories?entity_id= lists exactly the entity's memories", async () => {
    const t = (await tenant()).api;
    const e1 = await entity(t, "One");
    const e2 = await entity(t, "Two");
    const ms = [];
    for (let i = 0; i < 6; i++) ms.push(await createMemory(t, { content: `m${i}`, tier: i % 2 ? "long" : "short" }));
    await ok(t.post(`/v1/entities/${e1.id}/memories`, { memory_ids: ids(ms.slice(0, 4)) }));
    await ok(t.post(`/v1/entities/${e2.id}/memories`, { memory_ids: ids(ms.slice(3)) }));
    expect(ids(await listAll(t, `/v1/memories?entity_id=${e1.id}&order=asc`))).toEqual(ids(ms.slice(0, 4)));
    expect(ids(await listAll(t, `/v1/memories?entity_id=${e2.id}&order=asc`))).toEqual(ids(ms.slice(3)));
    expect(ids(await listAll(t, `/v1/memories?entity_id=${e1.id}&tier=long&order=asc`))).toEqual([
      ms[1]!.id,
      ms[3]!.id,
    ]);
    expect((await t.get(`/v1/memories?entity_id=${e1.id}&limit=1`)).body.meta).toMatchObject({
      total: 4,
      has_more: true,
    });
    await ok(t.delete(`/v1/entities/${e1.id}/memories/${ms[0]!.id}`));
    expect((await t.get(`/v1/memories?entity_id=${e1.id}`)).body.meta.total).toBe(3);
  });

  test("deleting a memory unlinks it (memory_count drops)", async () => {
    const t = (await tenant()).api;
    const e = await entity(t, "Counted");
    const parent = await createMemory(t);
    const child = await createMemory(t, { parent_memory_id: parent.id });
    const other = await createMemory(t);
    await ok(t.post(`/v1/entities/${e.id}/memories`, { memory_ids: [parent.id, child.id, other.id] }));
    await ok(t.delete(`/v1/memories/${other.id}`));
    expect(await count(t, e.id)).toBe(2);
    await ok(t.delete(`/v1/memories/${parent.id}?cascade=true`));
    expect(await count(t, e.id)).toBe(0);
    expect((await t.get(`/v1/memories?entity_id=${e.id}`)).body.meta.total).toBe(0);
  });

  test("deleting an entity unlinks it from its memories; the memories stay", async () => {
    const t = (await tenant()).api;
    const keep = await entity(t, "Keep");
    const doomed = await entity(t, "Doomed");
    const ms = [await createMemory(t), await createMemory(t)];
    for (const e of [keep, doomed]) await ok(t.post(`/v1/entities/${e.id}/memories`, { memory_ids: ids(ms) }));
    await ok(t.delete(`/v1/entities/${doomed.id}`));
    for (const m of ms) expect(await entityIdsOf(t, m.id)).toEqual([keep.id]);
    expect(await ok(t.get(`/v1/memories?entity_id=${doomed.id}`))).toEqual([]);
    expect((await t.get("/v1/memories")).body.meta.total).toBe(2);
    expect(await count(t, keep.id)).toBe(2);
  });
});
