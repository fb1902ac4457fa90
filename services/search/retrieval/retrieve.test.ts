import { beforeAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import type { MemorySnapshot } from "../../contract/events";
import type { Embedder } from "../embedder";
import {
  HASHED_DIMS as DIMS,
  HASHED_MODEL as MODEL,
  hashedEmbedder as fake,
  hashedVectorOf as vectorOf,
} from "../embedder/hashed.fixture";
import { createSearchStore } from "../store";
import { DOC } from "../store/fields";
import { searchKeys } from "../store/keyspace";
import { createApplier } from "../indexer";
import { snapshotFixture } from "../indexer/snapshot.fixture";
import { candidateCount, createCandidateReader, createRetriever, type Retrieve } from "./retrieve";
import { filterEffort, OVERSAMPLE_MAX, oversampleCount } from "./vector-search";

/** Retrieval against a real Redis with the hashed fake model. */

const db = privateRedis("search-retrieve");
let redis: Redis;
let retrieve: Retrieve;
/** The filter and COUNT of every VSIM the retriever sent. */
const vsimCalls: { count: number; filter: string | null }[] = [];
const space = { tenant: "rt", env: "live" as const };
const docs: MemorySnapshot[] = Array.from({ length: 300 }, (_, i) =>
  snapshotFixture(
    {
      content: `document number ${i} ${i % 10 === 0 ? "rare" : "common"} words`,
      tier: i % 3 === 0 ? "short" : i < 290 ? "long" : "medium",
    },
    new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
  ),
);

beforeAll(async () => {
  redis = await db.connect();
  const store = createSearchStore(redis);
  await createApplier(store, { write: fake, background: fake }, MODEL)(space, { upserts: docs, deletes: [] });
  const reads = {
    ...store.reads,
    nearest: (...args: Parameters<typeof store.reads.nearest>) => {
      vsimCalls.push({ count: args[1].count, filter: args[1].filter });
      return store.reads.nearest(...args);
    },
  };
  retrieve = createRetriever({ reads, embedder: fake, modelId: MODEL });
});
const byId = new Map(docs.map((d) => [d.id, d]));

describe("retrieve", () => {
  test("a memory's own text finds it first, with full semantic and lexical scores", async () => {
    const [top] = await retrieve(space, { query: docs[42]!.content, limit: 5, threshold: 0, filters: {} });
    expect(top!.id).toBe(docs[42]!.id);
    expect(top!.scores.semantic).toBeCloseTo(1, 2);
    expect(top!.scores.lexical).toBe(1);
  });

  test("every candidate gets both parts, even when only one side proposed it", async () => {
    // Deep enough that every lexical candidate is among the results, whatever the weights.
    const out = await retrieve(space, { query: "rare", limit: 200, threshold: 0, filters: {} });
    expect(out.length).toBe(200);
    const rare = out.filter((r) => byId.get(r.id)!.content.includes("rare"));
    expect(rare.length).toBe(30);
    for (const r of out) {
      expect(r.scores.semantic).not.toBeNull();
      expect(r.scores.lexical! > 0).toBe(byId.get(r.id)!.content.includes("rare"));
    }
  });

  test("a filter a large share passes: more neighbours without a filter, those in the filter set kept", async () => {
    const limit = 10;
    vsimCalls.length = 0;
    const out = await retrieve(space, { query: docs[7]!.content, limit, threshold: 0, filters: { tier: "long" } });
    expect(out.length).toBe(limit);
    expect(out.every((r) => byId.get(r.id)!.tier === "long")).toBe(true);
    expect(out[0]!.id).toBe(docs[7]!.id);
    const k = candidateCount(limit);
    const passing = docs.filter((d) => d.tier === "long").length;
    expect(k).toBeLessThan(passing);
    expect(vsimCalls).toEqual([{ count: oversampleCount(k, docs.length, passing), filter: null }]);
  });

  test("oversampling that finds too few passing neighbours falls back to VSIM FILTER", async () => {
    // Two clusters: 160 "alpha" memories around one direction, 40 "beta" ones (the only short ones)
    // around another. A query for alpha filtered to short: the oversampled nearest are all alpha.
    const cluster = (text: string) => {
      const v = vectorOf(text).map((x) => x * 0.1);
      v[text.startsWith("alpha") ? 0 : 1]! += 1;
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    };
    const clustered: Embedder = { model: "fake", dimensions: DIMS, embed: async (texts) => texts.map(cluster) };
    const at = { tenant: "rt-clusters", env: "live" as const };
    const members = Array.from({ length: 200 }, (_, i) => ({
      ...docs[i]!,
      id: crypto.randomUUID(),
      content: `${i < 160 ? "alpha" : "beta"} ${i}`,
      tier: i < 160 ? "long" : "short",
    }));
    const store = createSearchStore(redis);
    await createApplier(
      store,
      { write: clustered, background: clustered },
      MODEL,
    )(at, { upserts: members, deletes: [] });
    const calls: (string | null)[] = [];
    const reads = {
      ...store.reads,
      nearest: (...a: Parameters<typeof store.reads.nearest>) => (calls.push(a[1].filter), store.reads.nearest(...a)),
    };
    const out = await createRetriever({ reads, embedder: clustered, modelId: MODEL })(at, {
      query: "alpha",
      limit: 10,
      threshold: 0,
      filters: { tier: "short" },
    });
    expect(calls.length).toBe(2);
    expect(calls[0]).toBeNull();
    expect(calls[1]).toContain("short");
    expect(out.length).toBe(10);
    expect(out.every((r) => r.scores.semantic !== null && members.find((m) => m.id === r.id)!.tier === "short")).toBe(
      true,
    );
  });

  test("a filter of several conditions goes through VSIM FILTER; results all pass it", async () => {
    const limit = 10;
    vsimCalls.length = 0;
    const out = await retrieve(space, {
      query: docs[7]!.content,
      limit,
      threshold: 0,
      filters: { tier: "long", content_type: "text" },
    });
    expect(out.length).toBe(limit);
    expect(out.every((r) => byId.get(r.id)!.tier === "long")).toBe(true);
    expect(out[0]!.id).toBe(docs[7]!.id);
    expect(vsimCalls.length).toBe(1);
    expect(vsimCalls[0]!.filter).toContain("long");
  });

  test("oversampling is bounded: a rarer filter than k / OVERSAMPLE_MAX uses VSIM FILTER", () => {
    expect(oversampleCount(candidateCount(10), 100_000, 10_000)).toBe(200);
    expect(oversampleCount(candidateCount(10), 100_000, 1_000)).toBeGreaterThan(OVERSAMPLE_MAX);
  });

  test("a filter that few memories pass ranks every one of them exactly", async () => {
    const out = await retrieve(space, {
      query: "anything at all",
      limit: 100,
      threshold: 0,
      filters: { tier: "medium" },
    });
    expect(out.map((r) => r.id).sort()).toEqual(
      docs
        .filter((d) => d.tier === "medium")
        .map((d) => d.id)
        .sort(),
    );
  });

  test("FILTER-EF grows as the filter gets more selective, within [count × 100, set size]", () => {
    expect(filterEffort(60, 100_000, 100_000)).toBe(6000);
    expect(filterEffort(60, 1000, 100_000)).toBe(12_000);
    expect(filterEffort(60, 10, 100_000)).toBe(100_000);
  });
});

describe("retrieve when the embedder fails", () => {
  test("the query degrades to lexical ranking instead of failing", async () => {
    const broken: Embedder = {
      model: "fake",
      dimensions: DIMS,
      embed: async () => Promise.reject(new Error("model crashed")),
    };
    const lexicalOnly = createRetriever({ reads: createSearchStore(redis).reads, embedder: broken, modelId: MODEL });
    const hits = await lexicalOnly(space, { query: "rare words", limit: 5, threshold: 0, filters: {} });
    expect(hits.length).toBe(5);
    for (const h of hits) {
      expect(byId.get(h.id)!.content).toContain("rare");
      expect(h.scores.semantic).toBe(0);
    }
  });
});

describe("retrieve with memories past their expiry (not purged yet)", () => {
  test("they are no result, neither ranked nor browsed, and the rest fills the limit", async () => {
    const own = { tenant: "rt-expired", env: "live" as const };
    const now = Date.now();
    const mk = (i: number, expired: boolean) =>
      snapshotFixture(
        {
          content: `expiring kiwi ${i}`,
          ...(expired ? { expires_at: new Date(now - 1000).toISOString() } : {}),
        },
        new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
      );
    const all = Array.from({ length: 12 }, (_, i) => mk(i, i % 2 === 1));
    const store = createSearchStore(redis);
    await createApplier(store, { write: fake, background: fake }, MODEL)(own, { upserts: all, deletes: [] });
    const live = new Set(all.filter((_, i) => i % 2 === 0).map((d) => d.id));
    const ranked = await retrieve(own, { query: "expiring kiwi", limit: 6, threshold: 0, filters: {} });
    expect(new Set(ranked.map((r) => r.id))).toEqual(live);
    const browsed = await retrieve(own, { query: "*", limit: 6, threshold: 0, filters: {} });
    // Newest first: the six still there, although the newest memory of all expired.
    expect(browsed.map((r) => r.id)).toEqual([...live].reverse());
  });
});

describe("candidates of a memory embedded in chunks", () => {
  test("carry its chunk count, whichever side proposed them; one-vector memories carry none", async () => {
    const own = { tenant: "rt-chunks", env: "live" as const };
    const chunky: Embedder = { ...fake, maxTokens: 20 };
    const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(" ");
    const long = snapshotFixture({ content: `walnut ${words(60, "alpha")}` });
    const short = snapshotFixture({ content: "walnut bread" });
    const store = createSearchStore(redis);
    await createApplier(
      store,
      { write: chunky, background: chunky },
      MODEL,
    )(own, {
      upserts: [long, short],
      deletes: [],
    });
    const stored = Number(await redis.hget(searchKeys(own).doc(long.id), DOC.vectorCount));
    expect(stored).toBeGreaterThan(3);
    const read = createCandidateReader({ reads: store.reads, embedder: chunky, modelId: MODEL });
    const byLexical = await read(own, { query: "walnut", limit: 5, filters: {} });
    expect(byLexical.find((c) => c.id === long.id)?.chunks).toBe(stored);
    expect(byLexical.find((c) => c.id === short.id)?.chunks).toBeUndefined();
    // A query that shares no word: both come from the vector side alone.
    const bySemantic = await read(own, { query: "unrelated pecan", limit: 5, filters: {} });
    expect(bySemantic.find((c) => c.id === long.id)?.chunks).toBe(stored);

    // Its runner-up chunk's cosine comes along (how much the best stands out); a one-chunk memory has none.
    const matching = await read(own, { query: "alpha3 alpha4 alpha5", limit: 5, filters: {} });
    const hit = matching.find((c) => c.id === long.id)!;
    expect(hit.runnerUp).toBeDefined();
    expect(hit.runnerUp!).toBeLessThan(hit.semantic);
    expect(matching.find((c) => c.id === short.id)?.runnerUp).toBeUndefined();

    // A vector hit carries each chunk of its memory VSIM answered, [index, score] best first, and the lowest score.
    const [vector] = await chunky.embed(["alpha3 alpha4 alpha5"]);
    const set = searchKeys(own).vectors(MODEL);
    const flat = (await redis.call(
      "VSIM",
      set,
      "FP32",
      Buffer.from(vector!.buffer),
      "WITHSCORES",
      "COUNT",
      100,
    )) as string[];
    const ofLong = flat.flatMap((e, i) => {
      const [id, chunk] = e.split("#");
      return i % 2 === 0 && id === long.id ? [[Number(chunk ?? 0), Number(flat[i + 1])]] : [];
    });
    const nearest = async (count: number) =>
      (await store.reads.nearest(own, { modelId: MODEL, vector: vector!, count, filter: null })).find(
        (h) => h.id === long.id,
      )!;
    expect(ofLong.length).toBe(stored);
    const all = await nearest(100);
    expect(all.chunkScores).toEqual(ofLong as [number, number][]);
    expect(all.lowest).toBe(Number(flat[flat.length - 1]));
    const alone = await nearest(1);
    expect(alone.chunkScores).toEqual([ofLong[0] as [number, number]]);
    expect(alone.lowest).toBe(alone.score);
  });
});
