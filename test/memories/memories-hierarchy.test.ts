import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { createMemory, expectNotFound, ids, listAll, ok, tenant, type MemoryOut } from "./memory-helpers";
import { expectError } from "../envelope-helpers";

/** Hierarchies: parents, cycles, the depth limit, and both kinds of delete. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

const children = async (client: ApiClient, id: string) =>
  ids(await listAll(client, `/v1/memories?parent_memory_id=${id}&order=asc`));

const ACYCLIC = { field: "parent_memory_id", constraint: "acyclic" };
const TOO_DEEP = [
  "A memory hierarchy may be at most 64 levels deep",
  { field: "parent_memory_id", constraint: "max_depth", max: 64 },
] as const;

/** A chain of `n` memories, root first. */
async function chain(client: ApiClient, n: number): Promise<MemoryOut[]> {
  const out: MemoryOut[] = [];
  for (let i = 0; i < n; i++) {
    const parent = out.at(-1)?.id;
    out.push(
      await createMemory(client, { content: `level ${i + 1}`, ...(parent ? { parent_memory_id: parent } : {}) }),
    );
  }
  return out;
}

describe("parents and children", () => {
  test("children list under their parent; re-parenting moves them; null makes a root", async () => {
    const [a, b] = [await createMemory(api, { content: "A" }), await createMemory(api, { content: "B" })];
    const c1 = await createMemory(api, { content: "c1", parent_memory_id: a.id });
    const c2 = await createMemory(api, { content: "c2", parent_memory_id: a.id });
    expect(await children(api, a.id)).toEqual([c1.id, c2.id]);
    expect(await children(api, b.id)).toEqual([]);

    expect((await ok(api.patch(`/v1/memories/${c1.id}`, { parent_memory_id: b.id }))).parent_memory_id).toBe(b.id);
    expect(await children(api, a.id)).toEqual([c2.id]);
    expect(await children(api, b.id)).toEqual([c1.id]);

    expect((await ok(api.patch(`/v1/memories/${c2.id}`, { parent_memory_id: null }))).parent_memory_id).toBeNull();
    expect(await children(api, a.id)).toEqual([]);
    expect(ids(await listAll(api, "/v1/memories?root=true"))).toContain(c2.id);
    expect(ids(await listAll(api, "/v1/memories?root=false"))).not.toContain(c2.id);
  });

  test("a memory cannot be its own parent", async () => {
    const m = await createMemory(api);
    expectError(
      await api.patch(`/v1/memories/${m.id}`, { parent_memory_id: m.id }),
      400,
      "VALIDATION_ERROR",
      "A memory cannot be its own parent",
      ACYCLIC,
    );
    expect((await ok(api.get(`/v1/memories/${m.id}`))).parent_memory_id).toBeNull();
  });

  test("re-parenting under a descendant is a cycle: 400 acyclic, nothing changes", async () => {
    const [a, b, c] = await chain(api, 3);
    for (const descendant of [b!, c!]) {
      expectError(
        await api.patch(`/v1/memories/${a!.id}`, { parent_memory_id: descendant.id }),
        400,
        "VALIDATION_ERROR",
        "parent_memory_id would create a cycle (it is a descendant of this memory)",
        ACYCLIC,
      );
    }
    expectError(
      await api.patch(`/v1/memories/${b!.id}`, { parent_memory_id: c!.id }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id would create a cycle (it is a descendant of this memory)",
      ACYCLIC,
    );
    expect((await ok(api.get(`/v1/memories/${a!.id}`))).parent_memory_id).toBeNull();
    expect(await children(api, c!.id)).toEqual([]);
    // Moving a leaf under a sibling branch is fine.
    const d = await createMemory(api, { parent_memory_id: a!.id });
    expect((await ok(api.patch(`/v1/memories/${c!.id}`, { parent_memory_id: d.id }))).parent_memory_id).toBe(d.id);
  });

  test("a chain may be 64 levels deep, not 65 (create and re-parent)", async () => {
    const levels = await chain(api, 64);
    const deepest = levels[63]!;
    expectError(
      await api.post("/v1/memories", { content: "level 65", parent_memory_id: deepest.id }),
      400,
      "VALIDATION_ERROR",
      ...TOO_DEEP,
    );

    // A two-level subtree fits under level 62 (→ 63, 64), not under level 63.
    const [top, bottom] = await chain(api, 2);
    expectError(
      await api.patch(`/v1/memories/${top!.id}`, { parent_memory_id: levels[62]!.id }),
      400,
      "VALIDATION_ERROR",
      ...TOO_DEEP,
    );
    expect((await ok(api.get(`/v1/memories/${top!.id}`))).parent_memory_id).toBeNull();
    expect(
      (await ok(api.patch(`/v1/memories/${top!.id}`, { parent_memory_id: levels[61]!.id }))).parent_memory_id,
    ).toBe(levels[61]!.id);
    expectError(
      await api.post("/v1/memories", { content: "too deep", parent_memory_id: bottom!.id }),
      400,
      "VALIDATION_ERROR",
      ...TOO_DEEP,
    );
    // A leaf can still hang under level 63.
    expect((await createMemory(api, { parent_memory_id: levels[62]!.id })).parent_memory_id).toBe(levels[62]!.id);
  });
});

describe("delete and the hierarchy", () => {
  test("without cascade the children become roots and keep their own children", async () => {
    const t = (await tenant()).api;
    const root = await createMemory(t, { content: "root" });
    const kids = [
      await createMemory(t, { content: "k1", parent_memory_id: root.id }),
      await createMemory(t, { content: "k2", parent_memory_id: root.id }),
    ];
    const grandchild = await createMemory(t, { content: "g", parent_memory_id: kids[0]!.id });
    await Bun.sleep(3);
    expect(await ok(t.delete(`/v1/memories/${root.id}`))).toEqual({ id: root.id, deleted: true });
    expectNotFound(await t.get(`/v1/memories/${root.id}`));
    for (const k of kids) {
      const now = await ok(t.get(`/v1/memories/${k.id}`));
      expect(now).toEqual({ ...k, parent_memory_id: null, updated_at: now.updated_at });
      expect(Date.parse(now.updated_at)).toBeGreaterThan(Date.parse(k.updated_at));
    }
    expect((await ok(t.get(`/v1/memories/${grandchild.id}`))).parent_memory_id).toBe(kids[0]!.id);
    expect(ids(await listAll(t, "/v1/memories?root=true&order=asc"))).toEqual(ids(kids));
    expect((await t.get("/v1/memories")).body.meta.total).toBe(3);
  });

  test("cascade=true deletes the whole subtree and reports how many", async () => {
    const t = (await tenant()).api;
    const keep = await createMemory(t, { content: "unrelated" });
    const root = await createMemory(t, { content: "root", external_id: "root-ext" });
    const a = await createMemory(t, { parent_memory_id: root.id, external_id: "a-ext" });
    const b = await createMemory(t, { parent_memory_id: root.id });
    const aa = await createMemory(t, { parent_memory_id: a.id, external_id: "aa-ext" });
    const sibling = await createMemory(t, { parent_memory_id: keep.id });
    expect(await ok(t.delete(`/v1/memories/${a.id}?cascade=true`))).toEqual({
      id: a.id,
      deleted: true,
      deleted_count: 2,
    });
    expectNotFound(await t.get(`/v1/memories/${aa.id}`));
    expect(await children(t, root.id)).toEqual([b.id]);
    expect(await ok(t.delete(`/v1/memories/${root.id}?cascade=true`))).toEqual({
      id: root.id,
      deleted: true,
      deleted_count: 2,
    });
    for (const gone of [root, a, b, aa]) expectNotFound(await t.get(`/v1/memories/${gone.id}`));
    expect(ids(await listAll(t, "/v1/memories?order=asc"))).toEqual([keep.id, sibling.id]);
    expect((await t.get("/v1/memories?root=true")).body.meta.total).toBe(1);
    // Every external_id of the subtree is free again.
    for (const ext of ["root-ext", "a-ext", "aa-ext"])
      expect((await createMemory(t, { external_id: ext })).external_id).toBe(ext);
  });

  test("cascade on a leaf deletes just it (deleted_count 1)", async () => {
    const m = await createMemory(api);
    expect(await ok(api.delete(`/v1/memories/${m.id}?cascade=true`))).toEqual({
      id: m.id,
      deleted: true,
      deleted_count: 1,
    });
  });

  test("a deleted memory's tag links are gone: the tags' memory_count drops, the tags stay", async () => {
    const t = (await tenant()).api;
    const tag1 = (await ok(t.post("/v1/tags", { name: "one" }))).id;
    const tag2 = (await ok(t.post("/v1/tags", { name: "two", color: "#aabbcc" }))).id;
    const parent = await createMemory(t, { content: "parent" });
    const child = await createMemory(t, { content: "child", parent_memory_id: parent.id });
    const other = await createMemory(t, { content: "other" });
    for (const m of [parent, child, other]) await ok(t.post(`/v1/memories/${m.id}/tags`, { tag_ids: [tag1, tag2] }));
    expect((await ok(t.get(`/v1/memories/${parent.id}`))).tags).toEqual([
      { id: tag1, name: "one", color: null },
      { id: tag2, name: "two", color: "#aabbcc" },
    ]);
    const count = async (tagId: string) => (await ok(t.get(`/v1/tags/${tagId}`))).memory_count;
    expect([await count(tag1), await count(tag2)]).toEqual([3, 3]);

    await ok(t.delete(`/v1/memories/${other.id}`));
    expect([await count(tag1), await count(tag2)]).toEqual([2, 2]);
    await ok(t.delete(`/v1/memories/${parent.id}?cascade=true`));
    expect([await count(tag1), await count(tag2)]).toEqual([0, 0]);
    expect(await ok(t.get(`/v1/memories?tag_id=${tag1}`))).toEqual([]);
  });
});
