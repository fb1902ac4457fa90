import { describe, expect, test } from "bun:test";
import { createMemory, ok, tenant, UNKNOWN_ID } from "../memories/memory-helpers";
import { search, searchIds } from "./search-helpers";

/** POST /v1/search: each filter, on browse ("*") and on ranked queries. */

describe("POST /v1/search: filters", () => {
  test("tier, content_type, memory_nature, parent, created range and metadata", async () => {
    const { api } = await tenant();
    const root = await createMemory(api, { content: "project root", tier: "long", content_type: "document" });
    const a = await createMemory(api, {
      content: "fact one",
      tier: "short",
      content_type: "fact",
      memory_nature: "semantic",
      parent_memory_id: root.id,
      metadata: { source: "chat", n: 1 },
    });
    const b = await createMemory(api, {
      content: "event two",
      tier: "medium",
      content_type: "event",
      parent_memory_id: root.id,
      metadata: { source: "mail", n: "1" },
    });
    const c = await createMemory(api, { content: "text three", metadata: { source: "chat", nested: { x: [1, 2] } } });
    const q = (f: Record<string, unknown>) => searchIds(api, { query: "*", ...f });
    expect(await q({ tier: "short" })).toEqual([a.id]);
    expect(await q({ content_type: "document" })).toEqual([root.id]);
    expect(await q({ memory_nature: "semantic" })).toEqual([a.id]);
    expect(await q({ parent_memory_id: root.id })).toEqual([b.id, a.id]);
    expect(await q({ parent_memory_id: UNKNOWN_ID })).toEqual([]);
    expect(await q({ created_after: a.created_at })).toEqual([c.id, b.id, a.id]);
    expect(await q({ created_after: a.created_at, created_before: c.created_at })).toEqual([b.id, a.id]);
    expect(await q({ created_before: a.created_at })).toEqual([root.id]);
    expect(await q({ metadata: { source: "chat" } })).toEqual([c.id, a.id]);
    expect(await q({ metadata: { source: "chat", n: 1 } })).toEqual([a.id]);
    expect(await q({ metadata: { n: 1 } })).toEqual([a.id]);
    expect(await q({ metadata: { n: "1" } })).toEqual([b.id]);
    expect(await q({ metadata: { nested: { x: [1, 2] } } })).toEqual([c.id]);
    expect(await q({ metadata: { nested: { x: [2, 1] } } })).toEqual([]);
    expect(await q({ metadata: { missing: null } })).toEqual([]);
    // The same filters restrict ranked queries too.
    expect(await searchIds(api, { query: "fact event text", tier: "short" })).toEqual([a.id]);
    expect(
      await searchIds(api, { query: "fact event text", parent_memory_id: root.id, memory_nature: "episodic" }),
    ).toEqual([b.id]);
  });

  test("tags: any by default, all with tags_match, unknown ids match nothing", async () => {
    const { api } = await tenant();
    const [t1, t2] = [await ok(api.post("/v1/tags", { name: "one" })), await ok(api.post("/v1/tags", { name: "two" }))];
    const both = await createMemory(api, { content: "both tags" });
    const first = await createMemory(api, { content: "first tag" });
    await createMemory(api, { content: "no tags" });
    await ok(api.post(`/v1/memories/${both.id}/tags`, { tag_ids: [t1.id, t2.id] }));
    await ok(api.post(`/v1/memories/${first.id}/tags`, { tag_ids: [t1.id] }));
    expect(await searchIds(api, { query: "tags", tags: [t1.id, t2.id] })).toEqual(
      expect.arrayContaining([both.id, first.id]),
    );
    expect((await searchIds(api, { query: "tags", tags: [t1.id, t2.id] })).length).toBe(2);
    expect(await searchIds(api, { query: "tags", tags: [t1.id, t2.id], tags_match: "all" })).toEqual([both.id]);
    expect(await searchIds(api, { query: "tags", tags: [t2.id] })).toEqual([both.id]);
    expect(await searchIds(api, { query: "tags", tags: [UNKNOWN_ID] })).toEqual([]);
    expect(await searchIds(api, { query: "*", tags: [t1.id, UNKNOWN_ID], tags_match: "all" })).toEqual([]);
    expect((await searchIds(api, { query: "*", tags: [] })).length).toBe(3);
    // Deleting a tag removes it from every memory, and from the filters.
    await ok(api.delete(`/v1/tags/${t1.id}`));
    expect(await searchIds(api, { query: "*", tags: [t1.id] })).toEqual([]);
    expect(await searchIds(api, { query: "*", tags: [t2.id] })).toEqual([both.id]);
  });

  test("entity_id: memories linked to the entity", async () => {
    const { api } = await tenant();
    const m1 = await createMemory(api, { content: "met Ada at the conference" });
    await createMemory(api, { content: "unrelated" });
    const ada = await ok(api.post("/v1/entities", { name: "Ada", type: "person", memory_ids: [m1.id] }));
    expect(await searchIds(api, { query: "*", entity_id: ada.id })).toEqual([m1.id]);
    expect((await search(api, { query: "conference", entity_id: ada.id }))[0]!.entity_ids).toEqual([ada.id]);
    expect(await searchIds(api, { query: "*", entity_id: UNKNOWN_ID })).toEqual([]);
  });
});
