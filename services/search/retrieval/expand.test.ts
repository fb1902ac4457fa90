import { beforeAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import type { MemorySnapshot } from "../../contract/events";
import { HASHED_MODEL as MODEL, hashedEmbedder as fake, hashedVectorOf as vectorOf } from "../embedder/hashed.fixture";
import { createSearchStore, type SearchStore } from "../store";
import { createApplier } from "../indexer";
import { snapshotFixture } from "../indexer/snapshot.fixture";
import type { Candidate } from "../ranking";
import { createCandidateReader } from "./retrieve";
import { keptBy, propose } from "./expand";

/** Two threads of turns and the hashed fake model. */
const space = { tenant: "ex", env: "live" as const };
const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();

const roots = [0, 1].map((t) => snapshotFixture({ content: `session ${t}` }, at(0)));
/**
 * Thread 0 talks about the kitchen three times; thread 1 once, then small talk (more memories than a query's
 * candidates). Written out of order: occurred_at orders them.
 */
const lines = [
  ["we repainted the kitchen", "which colour", "sage green", "and the kitchen floor", "oak", "the kitchen lamp"],
  [
    "the garden needs water",
    "the kitchen window broke",
    "tomorrow then",
    "ok",
    ...Array.from({ length: 40 }, (_, i) => `small talk ${i}`),
  ],
];
const turns: MemorySnapshot[][] = lines.map((texts, t) =>
  texts.map((content, i) =>
    snapshotFixture({ content, parent_memory_id: roots[t]!.id, occurred_at: at(i + 1) }, at(100 - i)),
  ),
);

const db = privateRedis("search-expand");
let store: SearchStore;
beforeAll(async () => {
  const redis: Redis = await db.connect();
  store = createSearchStore(redis);
  await createApplier(
    store,
    { write: fake, background: fake },
    MODEL,
  )(space, {
    upserts: [...roots, ...turns.flat()],
    deletes: [],
  });
});

const idOf = (t: number, i: number) => turns[t]![i]!.id;
const candidate = (id: string, semantic: number, prev?: string): Candidate => ({ id, semantic, lexical: 0, prev });

describe("candidates from the threads of the first ones", () => {
  test("the next sibling is read in the thread's order; a thread's last turn has none", async () => {
    const { place } = await store.reads.complete(space, {
      modelId: MODEL,
      terms: [],
      lexicalFor: [],
      vectorsFor: [],
      prevFor: [idOf(0, 1), idOf(0, 5)],
    });
    expect(place.get(idOf(0, 1))!.parent).toBe(roots[0]!.id);
    const next = await store.reads.nextSiblings(space, [place.get(idOf(0, 1))!, place.get(idOf(0, 5))!]);
    expect(next).toEqual([idOf(0, 2), null]);
  });

  test("the best candidates' neighbours and the turns of the thread with most evidence are proposed", async () => {
    const first = [
      candidate(idOf(0, 1), 0.9, idOf(0, 0)),
      candidate(idOf(0, 3), 0.5, idOf(0, 2)),
      candidate(idOf(0, 5), 0.5, idOf(0, 4)),
      candidate(idOf(1, 1), 0.6, idOf(1, 0)),
    ];
    const { place } = await store.reads.complete(space, {
      modelId: MODEL,
      terms: [],
      lexicalFor: [],
      vectorsFor: [],
      prevFor: first.map((c) => c.id),
    });
    const proposed = await propose(store.reads, space, first, place, { neighbours: 1, threads: 1, feedback: 0 });
    // The best (turn 1 of thread 0): its previous and next sibling. Thread 0 sums three matches: all its turns.
    expect(proposed.get(idOf(0, 0))).toEqual({ neighbour: 0, thread: 0 });
    expect(proposed.get(idOf(0, 2))).toEqual({ neighbour: 0, thread: 0 });
    expect(proposed.get(idOf(0, 4))).toEqual({ thread: 0 });
    expect(proposed.has(idOf(1, 2))).toBe(false);
    expect([...proposed.keys()].some((id) => first.some((c) => c.id === id))).toBe(false);
    expect(keptBy(proposed.get(idOf(0, 4))!, { neighbours: 5, threads: 0, feedback: 0 })).toBe(false);
    expect(keptBy(proposed.get(idOf(0, 2))!, { neighbours: 1, threads: 0, feedback: 0 })).toBe(true);
  });

  test("the benchmarks' reader returns the added candidates with their own parts and why they were added", async () => {
    const read = createCandidateReader({ reads: store.reads, embedder: fake, modelId: MODEL });
    const out = await read(space, { query: "kitchen", limit: 1, filters: {} });
    const added = out.filter((c) => c.proposed);
    // 52 memories, 30 from each side at most: the threads propose the rest of their turns.
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(out.map((c) => c.id)).size).toBe(out.length);
    const content = new Map([...roots, ...turns.flat()].map((m) => [m.id, m.content]));
    const query = vectorOf("kitchen");
    for (const c of added) {
      const own = vectorOf(content.get(c.id)!);
      const cosine = own.reduce((s, x, i) => s + x * query[i]!, 0);
      expect(c.semantic).toBeCloseTo(Math.max(0, cosine), 1);
      if (content.get(c.id)!.includes("kitchen")) expect(c.lexical).toBeGreaterThan(0);
    }
  });
});
