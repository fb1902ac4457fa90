import { describe, expect, test } from "bun:test";
import { expectError } from "../envelope-helpers";
import { tenant } from "../memories/memory-helpers";
import { count, memory, tag, tagsOf } from "./tag-helpers";

/** memory_count stays exact under concurrent link changes and deletes of memories or tags. */

describe("memory_count is exact", () => {
  test("25 concurrent attaches, 25 repeated attaches and 10 concurrent detaches leave exactly 15", async () => {
    const { api } = await tenant();
    const t = await tag(api, "hot");
    const ms = await Promise.all(Array.from({ length: 25 }, (_, i) => memory(api, `m${i}`)));
    const first = await Promise.all(ms.map((m) => api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] })));
    expect(first.map((r) => r.body.data.added)).toEqual(Array(25).fill(1));
    const again = await Promise.all(ms.map((m) => api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] })));
    expect(again.map((r) => r.body.data.skipped)).toEqual(Array(25).fill(1));
    expect(await count(api, t.id)).toBe(25);
    const detached = await Promise.all(ms.slice(0, 10).map((m) => api.delete(`/v1/memories/${m}/tags/${t.id}`)));
    expect(detached.map((r) => r.body.data.removed)).toEqual(Array(10).fill(true));
    expect(await count(api, t.id)).toBe(15);
    expect((await api.get("/v1/tags?sort=memory_count")).body.data[0].memory_count).toBe(15);
  });

  test("deleting a memory drops the counts of its tags", async () => {
    const { api } = await tenant();
    const t = await tag(api, "counted");
    const m = await memory(api);
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] });
    expect((await api.delete(`/v1/memories/${m}`)).status).toBe(200);
    expect(await count(api, t.id)).toBe(0);
  });
});

describe("deleting a tag", () => {
  test("removes it from every memory that carried it; the memories stay", async () => {
    const { api } = await tenant();
    const gone = await tag(api, "gone");
    const keep = await tag(api, "keep");
    const m1 = await memory(api, "one");
    const m2 = await memory(api, "two");
    await api.post(`/v1/memories/${m1}/tags`, { tag_ids: [gone.id, keep.id] });
    await api.post(`/v1/memories/${m2}/tags`, { tag_ids: [gone.id] });
    expect(await count(api, gone.id)).toBe(2);
    expect((await api.delete(`/v1/tags/${gone.id}`)).body.data).toEqual({ id: gone.id, deleted: true });
    expect(await tagsOf(api, m1, keep.id)).toEqual([keep.id]);
    expect(await tagsOf(api, m2, keep.id)).toEqual([keep.id]);
    expect((await api.get(`/v1/memories/${m1}`)).status).toBe(200);
    expect((await api.get(`/v1/memories/${m2}`)).body.data.content).toBe("two");
    expectError(await api.post(`/v1/memories/${m1}/tags`, { tag_ids: [gone.id] }), 404, "NOT_FOUND", "Tag not found");
    expectError(await api.delete(`/v1/memories/${m1}/tags/${gone.id}`), 404, "NOT_FOUND", "Tag not found");
  });
});
