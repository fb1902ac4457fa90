import { describe, expect, test } from "bun:test";
import { expectError } from "../envelope-helpers";
import { tenant } from "../memories/memory-helpers";
import { count, memory, tag, tagsOf } from "./tag-helpers";

/**
 * Spec 4.2 memory↔tag links, black-box through the gateway: attach and detach. Memories are created
 * through the real POST /v1/memories (memories service).
 */

describe("POST /v1/memories/:id/tags", () => {
  test(
    "attaches, skips already attached ones, counts duplicate ids once; " + "tags are the full list sorted by name",
    async () => {
      const { api } = await tenant();
      const m = await memory(api);
      const b = await tag(api, "beta", "#00FF00");
      const a = await tag(api, "Alpha");
      const c = await tag(api, "charlie");
      const r1 = await api.post(`/v1/memories/${m}/tags`, { tag_ids: [b.id, b.id, c.id] });
      expect(r1.status).toBe(200);
      expect(r1.body.data).toEqual({
        memory_id: m,
        tags: [
          { id: b.id, name: "beta", color: "#00FF00" },
          { id: c.id, name: "charlie", color: null },
        ],
        added: 2,
        skipped: 0,
      });
      const r2 = await api.post(`/v1/memories/${m}/tags`, { tag_ids: [a.id, b.id, a.id, c.id] });
      expect(r2.body.data).toEqual({
        memory_id: m,
        tags: [
          { id: a.id, name: "Alpha", color: null },
          { id: b.id, name: "beta", color: "#00FF00" },
          { id: c.id, name: "charlie", color: null },
        ],
        added: 1,
        skipped: 2,
      });
      expect([await count(api, a.id), await count(api, b.id), await count(api, c.id)]).toEqual([1, 1, 1]);
    },
  );

  test("a memory read shows its current tags", async () => {
    const { api } = await tenant();
    const m = await memory(api);
    const t = await tag(api, "visible", "#123456");
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] });
    expect((await api.get(`/v1/memories/${m}`)).body.data.tags).toEqual([
      { id: t.id, name: "visible", color: "#123456" },
    ]);
    await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    expect((await api.get(`/v1/memories/${m}`)).body.data.tags).toEqual([]);
  });

  test("unknown memory or any unknown tag: 404 and nothing attached", async () => {
    const { api } = await tenant();
    const m = await memory(api);
    const t = await tag(api, "real");
    expectError(
      await api.post(`/v1/memories/${crypto.randomUUID()}/tags`, { tag_ids: [t.id] }),
      404,
      "NOT_FOUND",
      "Memory not found",
    );
    expectError(
      await api.post("/v1/memories/not-a-uuid/tags", { tag_ids: [t.id] }),
      404,
      "NOT_FOUND",
      "Memory not found",
    );
    expectError(
      await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id, crypto.randomUUID()] }),
      404,
      "NOT_FOUND",
      "Tag not found",
    );
    expectError(
      await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id, "not-a-uuid"] }),
      404,
      "NOT_FOUND",
      "Tag not found",
    );
    expect(await count(api, t.id)).toBe(0);
  });

  test("invalid bodies are 400 with field and constraint", async () => {
    const { api } = await tenant();
    const m = await memory(api);
    const t = await tag(api, "t");
    const cases: [unknown, string, Record<string, unknown>][] = [
      [{}, "tag_ids is required", { field: "tag_ids", constraint: "required" }],
      [{ tag_ids: [] }, "tag_ids must have at least 1 item(s)", { field: "tag_ids", constraint: "min_items", min: 1 }],
      [
        { tag_ids: Array.from({ length: 101 }, () => t.id) },
        "tag_ids must have at most 100 items",
        { field: "tag_ids", constraint: "max_items", max: 100 },
      ],
      [{ tag_ids: t.id }, "tag_ids must be array", { field: "tag_ids", constraint: "type" }],
      [{ tag_ids: [7] }, "tag_ids.0 must be string", { field: "tag_ids.0", constraint: "type" }],
      [
        { tag_ids: [t.id], extra: 1 },
        "extra is not an accepted field",
        { field: "extra", constraint: "unknown_field" },
      ],
    ];
    for (const [body, message, details] of cases)
      expectError(await api.post(`/v1/memories/${m}/tags`, body), 400, "VALIDATION_ERROR", message, details);
    expect(await count(api, t.id)).toBe(0);
  });

  test("a memory carries at most 100 tags; the call that would pass it attaches nothing", async () => {
    const { api } = await tenant();
    const m = await memory(api);
    const ids = (await Promise.all(Array.from({ length: 101 }, (_, i) => tag(api, `cap ${i}`)))).map((t) => t.id);
    expect((await api.post(`/v1/memories/${m}/tags`, { tag_ids: ids.slice(0, 99) })).body.data.added).toBe(99);
    expectError(
      await api.post(`/v1/memories/${m}/tags`, { tag_ids: ids.slice(99) }),
      400,
      "VALIDATION_ERROR",
      "A memory can carry at most 100 tags",
      {
        field: "tag_ids",
        constraint: "max_count",
        max: 100,
      },
    );
    expect(await count(api, ids[100]!)).toBe(0);
    expect((await api.post(`/v1/memories/${m}/tags`, { tag_ids: [ids[99]!] })).body.data).toMatchObject({
      added: 1,
      skipped: 0,
    });
    expect((await api.post(`/v1/memories/${m}/tags`, { tag_ids: [ids[0]!] })).body.data.tags).toHaveLength(100);
  });
});

describe("DELETE /v1/memories/:id/tags/:tagId", () => {
  test("removes: true, then removes: false (idempotent); counts follow", async () => {
    const { api } = await tenant();
    const m = await memory(api);
    const t = await tag(api, "detachable");
    const other = await tag(api, "stays");
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id, other.id] });
    const r1 = await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    expect(r1.status).toBe(200);
    expect(r1.body.data).toEqual({ memory_id: m, tag_id: t.id, removed: true });
    const r2 = await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    expect(r2.status).toBe(200);
    expect(r2.body.data).toEqual({ memory_id: m, tag_id: t.id, removed: false });
    expect(await count(api, t.id)).toBe(0);
    expect(await tagsOf(api, m, other.id)).toEqual([other.id]);
  });

  test("unknown or malformed memory or tag is 404", async () => {
    const { api } = await tenant();
    const m = await memory(api);
    const t = await tag(api, "x");
    expectError(
      await api.delete(`/v1/memories/${crypto.randomUUID()}/tags/${t.id}`),
      404,
      "NOT_FOUND",
      "Memory not found",
    );
    expectError(await api.delete(`/v1/memories/nope/tags/${t.id}`), 404, "NOT_FOUND", "Memory not found");
    expectError(await api.delete(`/v1/memories/${m}/tags/${crypto.randomUUID()}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await api.delete(`/v1/memories/${m}/tags/nope`), 404, "NOT_FOUND", "Tag not found");
  });
});
