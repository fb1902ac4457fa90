import { describe, expect, test } from "bun:test";
import { keysMatching, stackRedis, testStack } from "../harness";
import { createMemory, listAll, ok, tenant, type MemoryOut } from "../memories/memory-helpers";
import { expectError } from "../envelope-helpers";
import { eventually, search, searchIds, word } from "./search-helpers";
import type { ApiClient } from "../api";

const sorted = (xs: string[]) => [...xs].sort();

/**
 * What the index decides, compared with the memories store: which memories exist, what their
 * current words are (lexical match), and their tier and tags (filters).
 */
async function expectConverged(api: ApiClient, words: Map<string, { now: string; before?: string }>, tagId: string) {
  const store: MemoryOut[] = await listAll(api, "/v1/memories");
  expect(sorted(await searchIds(api, { query: "*" }))).toEqual(sorted(store.map((m) => m.id)));
  for (const tier of ["short", "long"]) {
    expect(sorted(await searchIds(api, { query: "*", tier }))).toEqual(
      sorted(store.filter((m) => m.tier === tier).map((m) => m.id)),
    );
  }
  expect(sorted(await searchIds(api, { query: "*", tags: [tagId] }))).toEqual(
    sorted(store.filter((m) => m.tags.some((t) => t.id === tagId)).map((m) => m.id)),
  );
  const alive = new Set(store.map((m) => m.id));
  for (const [id, w] of words) {
    const found = await search(api, { query: w.now, limit: 3 });
    if (alive.has(id)) {
      expect(found[0]!.id).toBe(id);
      expect(found[0]!.scores.lexical).toBe(1);
    } else {
      expect(found.map((r) => r.id)).not.toContain(id);
    }
    if (w.before)
      expect((await search(api, { query: w.before })).find((r) => r.id === id)?.scores.lexical ?? 0).toBe(0);
  }
}

describe("search index convergence", () => {
  test("writes made while the search service is down (stopped, then killed) " +
    "are all in the index once it is back", async () => {
    const stack = await testStack();
    const { api } = await tenant();
    const tag = await ok(api.post("/v1/tags", { name: "flagged" }));
    const words = new Map<string, { now: string; before?: string }>();
    const make = async (tier: string) => {
      const w = word();
      const m = await createMemory(api, { content: `note ${w}`, tier });
      words.set(m.id, { now: w });
      return m;
    };
    const before = [
      await make("short"),
      await make("short"),
      await make("long"),
      await make("short"),
      await make("long"),
    ];

    // Outage 1: a graceful stop.
    for (const s of stack.services.search) await s.stop();
    expectError(
      await api.post("/v1/search", { query: "*" }),
      503,
      "SERVICE_UNAVAILABLE",
      "The service is unavailable, retry shortly",
    );
    const during = [await make("short"), await make("long"), await make("short")];
    // A batch's events travel as one message: the indexer applies each of them.
    const batchWords = [word(), word(), word()];
    const batched = await ok(
      api.post("/v1/memories/batch", {
        items: batchWords.map((w, i) => ({ content: `batched ${w}`, tier: i ? "long" : "short" })),
      }),
    );
    batched.items.forEach((item: { data: { id: string } }, i: number) =>
      words.set(item.data.id, { now: batchWords[i]! }),
    );
    for (const m of [before[0]!, during[0]!]) {
      const w = word();
      await ok(api.patch(`/v1/memories/${m.id}`, { content: `edited ${w}`, tier: "long" }));
      words.set(m.id, { now: w, before: words.get(m.id)!.now });
    }
    await ok(api.post(`/v1/memories/${before[1]!.id}/tags`, { tag_ids: [tag.id] }));
    await ok(api.post(`/v1/memories/${during[1]!.id}/tags`, { tag_ids: [tag.id] }));
    await ok(api.delete(`/v1/memories/${before[2]!.id}`));
    await ok(api.delete(`/v1/memories/${during[2]!.id}`));
    stack.addReplica("search");
    await eventually(() => expectConverged(api, words, tag.id), 60_000, 500);

    // Outage 2: the process is killed in the middle of a burst of concurrent writes.
    const burst = Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const m = await make(i % 2 ? "short" : "long");
        if (i % 3 === 0) await ok(api.post(`/v1/memories/${m.id}/tags`, { tag_ids: [tag.id] }));
        if (i % 5 === 0) await ok(api.delete(`/v1/memories/${m.id}`));
        if (i % 7 === 0) {
          const w = word();
          await ok(api.patch(`/v1/memories/${before[3]!.id}`, { content: `again ${w}` }));
        }
      }),
    );
    await Bun.sleep(150);
    for (const s of stack.services.search) if (s.proc.exitCode === null) await s.kill9();
    await burst;
    const last = await ok(api.get(`/v1/memories/${before[3]!.id}`));
    words.set(before[3]!.id, { now: last.content.split(" ")[1] });
    await ok(api.post(`/v1/memories/${before[4]!.id}/tags`, { tag_ids: [tag.id] }));
    stack.addReplica("search");
    await eventually(() => expectConverged(api, words, tag.id), 60_000, 500);
  }, 180_000);

  test("an index lost from Redis is rebuilt by the service itself", async () => {
    const stack = await testStack();
    const { api, tenant: name } = await tenant();
    const made: MemoryOut[] = [];
    for (let i = 0; i < 4; i++)
      made.push(await createMemory(api, { content: `kept ${word()}`, tier: i % 2 ? "long" : "short" }));
    await ok(api.delete(`/v1/memories/${made[0]!.id}`));
    expect(sorted(await searchIds(api, { query: "*" }))).toEqual(sorted(made.slice(1).map((m) => m.id)));

    const redis = stackRedis(stack);
    try {
      const keys = await keysMatching(redis, `s:{${name}:live}:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    await eventually(
      async () => {
        expect(sorted(await searchIds(api, { query: "*" }))).toEqual(sorted(made.slice(1).map((m) => m.id)));
        expect(await searchIds(api, { query: "*", tier: "long" })).toEqual([made[3]!.id, made[1]!.id]);
        expect((await search(api, { query: made[2]!.content.split(" ")[1]! }))[0]!.id).toBe(made[2]!.id);
      },
      30_000,
      300,
    );
  }, 60_000);
});
