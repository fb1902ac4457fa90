import { describe, expect, test } from "bun:test";
import { createMemory, ok, tenant } from "../memories/memory-helpers";
import { expectError } from "../envelope-helpers";
import { search, searchIds, word } from "./search-helpers";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

describe("POST /v1/search: validation", () => {
  const cases: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
    ["query missing", {}, "query is required", { field: "query", constraint: "required" }],
    ["query empty", { query: "" }, "query must not be empty", { field: "query", constraint: "required" }],
    ["query blank", { query: "   " }, "query must not be empty", { field: "query", constraint: "required" }],
    ["query not a string", { query: 5 }, "query must be string", { field: "query", constraint: "type" }],
    ["limit 0", { query: "x", limit: 0 }, "limit must be >= 1", { field: "limit", constraint: "minimum", min: 1 }],
    [
      "limit 101",
      { query: "x", limit: 101 },
      "limit must be <= 100",
      { field: "limit", constraint: "maximum", max: 100 },
    ],
    ["limit 2.5", { query: "x", limit: 2.5 }, "limit must be an integer", { field: "limit", constraint: "type" }],
    [
      "threshold < 0",
      { query: "x", threshold: -0.1 },
      "threshold must be >= 0",
      { field: "threshold", constraint: "minimum", min: 0 },
    ],
    [
      "threshold > 1",
      { query: "x", threshold: 1.5 },
      "threshold must be <= 1",
      { field: "threshold", constraint: "maximum", max: 1 },
    ],
    [
      "tier",
      { query: "x", tier: "huge" },
      "tier must be one of short, medium, long",
      { field: "tier", constraint: "enum", allowed: ["short", "medium", "long"] },
    ],
    [
      "tags not uuids",
      { query: "x", tags: ["nope"] },
      "tags.0 has an invalid format (expected uuid)",
      { field: "tags.0", constraint: "format" },
    ],
    ["tags not a list", { query: "x", tags: UNKNOWN }, "tags must be array", { field: "tags", constraint: "type" }],
    [
      "tags_match",
      { query: "x", tags_match: "some" },
      "tags_match must be one of any, all",
      { field: "tags_match", constraint: "enum", allowed: ["any", "all"] },
    ],
    [
      "content_type",
      { query: "x", content_type: "blob" },
      "content_type must be one of text, conversation, document, event, fact",
      { field: "content_type", constraint: "enum", allowed: ["text", "conversation", "document", "event", "fact"] },
    ],
    [
      "memory_nature",
      { query: "x", memory_nature: "dreamy" },
      "memory_nature must be one of episodic, semantic",
      { field: "memory_nature", constraint: "enum", allowed: ["episodic", "semantic"] },
    ],
    [
      "parent_memory_id",
      { query: "x", parent_memory_id: "p1" },
      "parent_memory_id has an invalid format (expected uuid)",
      { field: "parent_memory_id", constraint: "format" },
    ],
    [
      "entity_id",
      { query: "x", entity_id: "e1" },
      "entity_id has an invalid format (expected uuid)",
      { field: "entity_id", constraint: "format" },
    ],
    [
      "created_after",
      { query: "x", created_after: "yesterday" },
      "created_after has an invalid format (expected date-time)",
      { field: "created_after", constraint: "format" },
    ],
    [
      "empty range",
      { query: "x", created_after: "2024-02-01T00:00:00Z", created_before: "2024-01-01T00:00:00Z" },
      "created_before must be later than created_after",
      { field: "created_before", constraint: "range" },
    ],
    [
      "metadata not an object",
      { query: "x", metadata: [1] },
      "metadata must be object",
      { field: "metadata", constraint: "type" },
    ],
    [
      "unknown field",
      { query: "x", sort: "score" },
      "sort is not an accepted field",
      { field: "sort", constraint: "unknown_field" },
    ],
  ];
  for (const [name, body, message, details] of cases) {
    test(name, async () => {
      const { api } = await tenant();
      expectError(await api.post("/v1/search", body), 400, "VALIDATION_ERROR", message, details);
    });
  }

  test("needs the search:read scope", async () => {
    const { api } = await tenant({ scopes: ["memories:read", "memories:write"] });
    expectError(await api.post("/v1/search", { query: "x" }), 403, "FORBIDDEN", "Missing required scope: search:read");
    expectError(await api.post("/v1/context", { query: "x" }), 403, "FORBIDDEN", "Missing required scope: search:read");
  });
});

describe("POST /v1/search: results", () => {
  test("full memories with score and scores, best first; meta.total counts the results", async () => {
    const { api } = await tenant();
    const w = word();
    const best = await createMemory(api, {
      content: `The ${w} festival takes place in the old harbour every summer`,
      metadata: { a: 1 },
    });
    await createMemory(api, { content: "Grocery list: milk, eggs, bread" });
    await createMemory(api, {
      content: `Another note that mentions ${w} once among many other unrelated words about trains and weather`,
    });
    const res = await api.post("/v1/search", { query: `${w} festival harbour` });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(3);
    expect(typeof res.body.meta.latency_ms).toBe("number");
    const results = res.body.data.results;
    const stored = await ok(api.get(`/v1/memories/${best.id}`));
    expect(results[0]).toEqual({
      ...stored,
      score: expect.any(Number),
      scores: { semantic: expect.any(Number), lexical: expect.any(Number), thread: 0 },
    });
    for (let i = 1; i < results.length; i++) expect(results[i - 1].score).toBeGreaterThanOrEqual(results[i].score);
    for (const r of results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    expect(results[0].scores.lexical).toBe(1);
    expect(results[2].scores.lexical).toBe(0);
  });

  test("limit caps the results; threshold 0 returns the top `limit` whatever their similarity", async () => {
    const { api } = await tenant();
    for (let i = 0; i < 5; i++) await createMemory(api, { content: `note number ${i} about ${word()}` });
    expect((await search(api, { query: "completely unrelated astrophysics question", limit: 3 })).length).toBe(3);
    expect((await search(api, { query: "completely unrelated astrophysics question" })).length).toBe(5);
  });

  test("a threshold above every match gives an empty list; at or below the best score keeps it", async () => {
    const { api } = await tenant();
    const w = word();
    await createMemory(api, { content: `${w} appears here` });
    await createMemory(api, { content: "nothing in common" });
    const all = await search(api, { query: w });
    const top = all[0]!.score;
    expect(await search(api, { query: w, threshold: Math.min(1, top + 0.0001) })).toEqual(
      top < 1 ? [] : expect.any(Array),
    );
    const kept = await search(api, { query: w, threshold: top });
    expect(kept.map((r) => r.score).every((s) => s >= top)).toBe(true);
    expect(kept.length).toBeGreaterThanOrEqual(1);
    const mid = await search(api, { query: w, threshold: 0.3 });
    expect(mid.every((r) => r.score >= 0.3)).toBe(true);
    expect(mid.length).toBeLessThan(all.length);
  });

  test('"*" matches everything, newest first, and honours filters and limit', async () => {
    const { api } = await tenant();
    const made = [];
    for (let i = 0; i < 4; i++)
      made.push(await createMemory(api, { content: `m${i}`, tier: i % 2 ? "long" : "short" }));
    const all = await search(api, { query: "*" });
    expect(all.map((r) => r.id)).toEqual(made.map((m) => m.id).reverse());
    expect(all[0]!.score).toBe(1);
    expect(all[0]!.scores).toEqual({ semantic: null, lexical: null, thread: null });
    expect(await searchIds(api, { query: "*", tier: "long" })).toEqual([made[3]!.id, made[1]!.id]);
    expect(await searchIds(api, { query: " * ", limit: 1 })).toEqual([made[3]!.id]);
  });

  test("the results of one tenant (and environment) never contain another's memories", async () => {
    const a = await tenant();
    const b = await tenant();
    const aTest = await tenant({ tenant: a.tenant, environment: "test" });
    const w = word();
    const mine = await createMemory(a.api, { content: `secret ${w} plans` });
    expect(await searchIds(a.api, { query: w })).toEqual([mine.id]);
    expect(await searchIds(b.api, { query: w })).toEqual([]);
    expect(await searchIds(b.api, { query: "*" })).toEqual([]);
    expect(await searchIds(aTest.api, { query: w })).toEqual([]);
    const theirs = await createMemory(b.api, { content: `other ${w}` });
    expect(await searchIds(a.api, { query: w })).toEqual([mine.id]);
    expect(await searchIds(b.api, { query: w })).toEqual([theirs.id]);
    expect((await a.api.post("/v1/context", { query: w })).body.data.memories.map((m: { id: string }) => m.id)).toEqual(
      [mine.id],
    );
  });
});

describe("POST /v1/search: read-your-writes", () => {
  test("create, patch, attach, detach and delete are visible as soon as the call returns", async () => {
    const { api } = await tenant();
    const [w1, w2] = [word(), word()];
    const m = await createMemory(api, { content: `first ${w1}`, tier: "short" });
    expect((await search(api, { query: w1 }))[0]).toMatchObject({ id: m.id, content: `first ${w1}` });

    await ok(api.patch(`/v1/memories/${m.id}`, { content: `second ${w2}`, tier: "long" }));
    expect((await search(api, { query: w2 }))[0]).toMatchObject({ id: m.id, content: `second ${w2}`, tier: "long" });
    expect((await search(api, { query: w1 })).find((r) => r.id === m.id)?.scores.lexical ?? 0).toBe(0);
    expect(await searchIds(api, { query: w2, tier: "long" })).toEqual([m.id]);
    expect(await searchIds(api, { query: w2, tier: "short" })).toEqual([]);

    const tag = await ok(api.post("/v1/tags", { name: `t-${w1}`, color: "#112233" }));
    await ok(api.post(`/v1/memories/${m.id}/tags`, { tag_ids: [tag.id] }));
    const tagged = await search(api, { query: w2, tags: [tag.id] });
    expect(tagged.map((r) => r.id)).toEqual([m.id]);
    expect(tagged[0]!.tags).toEqual([{ id: tag.id, name: `t-${w1}`, color: "#112233" }]);

    await ok(api.delete(`/v1/memories/${m.id}/tags/${tag.id}`));
    expect(await searchIds(api, { query: w2, tags: [tag.id] })).toEqual([]);

    await ok(api.delete(`/v1/memories/${m.id}`));
    expect(await searchIds(api, { query: w2 })).toEqual([]);
    expect(await searchIds(api, { query: "*" })).toEqual([]);
  });
});

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
    expect(await q({ parent_memory_id: UNKNOWN })).toEqual([]);
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
    expect(await searchIds(api, { query: "tags", tags: [UNKNOWN] })).toEqual([]);
    expect(await searchIds(api, { query: "*", tags: [t1.id, UNKNOWN], tags_match: "all" })).toEqual([]);
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
    expect(await searchIds(api, { query: "*", entity_id: UNKNOWN })).toEqual([]);
  });
});

describe("POST /v1/search: ranking", () => {
  test("a reply is found through the message it answers (thread context)", async () => {
    const { api } = await tenant();
    const root = await createMemory(api, { content: "chat session", content_type: "conversation" });
    const turn = (content: string) =>
      createMemory(api, { content, parent_memory_id: root.id, content_type: "conversation" });
    await turn("Anna: hi, how was the weekend?");
    const question = await turn("Ben: where did you go for your sailing trip?");
    const answer = await turn("Anna: we went to Brittany, the coast near Saint-Malo");
    await turn("Ben: sounds lovely, see you at work");
    const results = await search(api, { query: "Where did Anna go sailing?", limit: 3 });
    expect(results.map((r) => r.id)).toContain(answer.id);
    const a = results.find((r) => r.id === answer.id)!;
    expect(a.scores.lexical).toBeGreaterThan(0); // "sail" comes from the question it answers
    expect(results.map((r) => r.id)).toContain(question.id);
  });
});
