import { describe, expect, test } from "bun:test";
import { createMemory, ok, tenant } from "../memories/memory-helpers";
import { search, searchIds, word } from "./search-helpers";

/** POST /v1/search: what it answers, how it ranks, and that a write is visible as soon as it returns. */

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
      scores: { semantic: expect.any(Number), lexical: expect.any(Number), thread: 0, entity: null },
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
    expect(all[0]!.scores).toEqual({ semantic: null, lexical: null, thread: null, entity: null });
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
