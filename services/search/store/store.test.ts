import { beforeAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import fc from "fast-check";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { hashOfPairs } from "../../kit/redis-replies";
import type { Space } from "../../kit/space";
import type { MemorySnapshot } from "../../contract/events";
import { DOC, STATS } from "./fields";
import { searchKeys } from "./keyspace";
import { toIndexDoc } from "../indexer";
import { toFilterSpec, toVsimFilter, type FilterInput } from "../filters";
import { B, CONTEXT_WEIGHT, K1 } from "../ranking/bm25";
import { createSearchStore, type SearchStore } from "./index";
import { LEXICAL_POSTINGS_BUDGET, postingsPerTerm } from "./reads";
import { snapshotFixture } from "../indexer/snapshot.fixture";

/** The store's Lua scripts against a real, private Redis 8 (vector sets included). */
const db = privateRedis("search-store");
let redis: Redis;
let store: SearchStore;
const MODEL = "test-4";

beforeAll(async () => {
  redis = await db.connect();
  store = createSearchStore(redis);
});
let n = 0;
const space = (): Space => ({ tenant: `st${++n}`, env: "live" });
let clock = Date.parse("2024-01-01T00:00:00.000Z");
const snap = (over: Partial<MemorySnapshot> = {}): MemorySnapshot =>
  snapshotFixture(over, new Date(clock++).toISOString());
const vec = (...xs: number[]) => Float32Array.from(xs.length ? xs : [1, 0, 0, 0]);
const put = (
  s: Space,
  snaps: MemorySnapshot[],
  opts: { vector?: Float32Array | null; version?: number; model?: string } = {},
) =>
  store.writes.upsert(
    s,
    opts.model ?? MODEL,
    snaps.map((x) => ({
      doc: toIndexDoc(x),
      version: opts.version ?? x.version,
      vector: opts.vector === undefined ? vec() : opts.vector,
    })),
  );
const postings = async (s: Space, term: string) => {
  const flat = (
    (await redis.call("ZRANGE", searchKeys(s).term(term), 0, -1, "WITHSCORES")) as unknown[]
  ).flat() as string[];
  return Object.fromEntries(Object.entries(hashOfPairs(flat)).map(([id, weight]) => [id, Number(weight)]));
};
const w = (tf: number, len: number, avgdl: number) => (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avgdl));

describe("versions and tombstones", () => {
  test("an older or equal version is stale; a newer one replaces the document", async () => {
    const s = space();
    const m = snap({ version: 3, content: "alpha" });
    expect(await put(s, [m])).toEqual(["ok"]);
    expect(await put(s, [{ ...m, version: 2, content: "beta" }])).toEqual(["stale"]);
    expect(await put(s, [{ ...m, version: 3, content: "beta" }])).toEqual(["stale"]);
    expect(await postings(s, "beta")).toEqual({});
    expect(await put(s, [{ ...m, version: 4, content: "beta" }])).toEqual(["ok"]);
    expect(Object.keys(await postings(s, "beta"))).toEqual([m.id]);
    expect(await postings(s, "alpha")).toEqual({});
  });

  test("a delete leaves a tombstone that no older, equal or unknown version passes", async () => {
    const s = space();
    const m = snap({ version: 1, content: "gamma" });
    await put(s, [m]);
    expect(await store.writes.remove(s, [{ id: m.id, version: 2 }])).toEqual(["ok"]);
    expect(await postings(s, "gamma")).toEqual({});
    expect(await redis.zcard(searchKeys(s).all)).toBe(0);
    expect(Number(await redis.call("VCARD", searchKeys(s).vectors(MODEL)))).toBe(0);
    expect(await put(s, [{ ...m, version: 2 }])).toEqual(["stale"]);
    expect(await put(s, [m], { version: -1 })).toEqual(["stale"]);
    expect(await redis.pttl(searchKeys(s).doc(m.id))).toBeGreaterThan(7 * 24 * 3600_000);
    // A delete that arrives before the create still wins over it.
    const early = snap({ version: 1 });
    expect(await store.writes.remove(s, [{ id: early.id, version: 2 }])).toEqual(["absent"]);
    expect(await put(s, [early])).toEqual(["stale"]);
  });

  test("an unknown version (rebuild) inserts at 0, and only replaces known data when it is newer", async () => {
    const s = space();
    const m = snap({ content: "delta" });
    expect(await put(s, [m], { version: -1 })).toEqual(["ok"]);
    expect(await redis.hget(searchKeys(s).doc(m.id), DOC.version)).toBe("0");
    expect(await put(s, [{ ...m, version: 1, content: "epsilon" }])).toEqual(["ok"]);
    expect(await put(s, [{ ...m, content: "zeta" }], { version: -1 })).toEqual(["stale"]);
    const newer = { ...m, content: "zeta", updated_at: new Date(Date.parse(m.updated_at) + 5000).toISOString() };
    expect(await put(s, [newer], { version: -1 })).toEqual(["ok"]);
    expect(await redis.hget(searchKeys(s).doc(m.id), DOC.version)).toBe("1");
    expect(Object.keys(await postings(s, "zeta"))).toEqual([m.id]);
  });

  test("a rebuild for another model, not newer, replaces only the vector, keeping the indexed fields", async () => {
    const s = space();
    const m = snap({ tier: "short", content: "theta" });
    await put(s, [m]);
    await put(s, [{ ...m, version: 2, tier: "long" }], { vector: null });
    // The listing the rebuild read is older than the indexed version 2 (tier short).
    expect(await put(s, [m], { version: -1, model: "other-4" })).toEqual(["revectored"]);
    expect(Number(await redis.call("VCARD", searchKeys(s).vectors(MODEL)))).toBe(0);
    expect(JSON.parse(String(await redis.call("VGETATTR", searchKeys(s).vectors("other-4"), m.id))).tier).toBe("long");
    expect(await redis.hmget(searchKeys(s).doc(m.id), DOC.version, DOC.model)).toEqual(["2", "other-4"]);
    expect(await put(s, [m], { version: -1, model: "other-4" })).toEqual(["stale"]);
  });

  test("without a vector the stored one is kept, or 'need_vector' when there is none for this model", async () => {
    const s = space();
    const m = snap({ tier: "short" });
    await put(s, [m]);
    expect(await put(s, [{ ...m, version: 2, tier: "long" }], { vector: null })).toEqual(["ok"]);
    expect(JSON.parse(String(await redis.call("VGETATTR", searchKeys(s).vectors(MODEL), m.id))).tier).toBe("long");
    expect(await put(s, [{ ...m, version: 3 }], { vector: null, model: "other-4" })).toEqual(["need_vector"]);
    expect(await put(s, [{ ...m, version: 3 }], { model: "other-4" })).toEqual(["ok"]);
    expect(Number(await redis.call("VCARD", searchKeys(s).vectors(MODEL)))).toBe(0);
    expect(Number(await redis.call("VCARD", searchKeys(s).vectors("other-4")))).toBe(1);
  });
});

describe("BM25 postings and thread context", () => {
  test("weights follow BM25 with the tenant's average length", async () => {
    const s = space();
    const a = snap({ content: "apple apple banana" });
    const b = snap({ content: "banana cherry cherry cherry date" });
    await put(s, [a]);
    await put(s, [b]);
    // a was indexed alone (avgdl = its length 3); b with avgdl = (3 + 5) / 2.
    expect((await postings(s, "appl"))[a.id]).toBeCloseTo(w(2, 3, 3), 9);
    expect((await postings(s, "cherri"))[b.id]).toBeCloseTo(w(3, 5, 4), 9);
    expect(await redis.hget(searchKeys(s).stats, STATS.postingLengthSum)).toBe("8");
    await store.writes.reweight(s, [a.id, b.id]);
    expect((await postings(s, "appl"))[a.id]).toBeCloseTo(w(2, 3, 4), 9);
    expect(await redis.hget(searchKeys(s).stats, STATS.postingLengthSum)).toBe("8");
  });

  test("a reply carries its previous sibling's terms at the context weight; edits and deletes re-link", async () => {
    const s = space();
    const root = snap({ content: "session" });
    const q = snap({ parent_memory_id: root.id, content: "where did you travel" });
    const r = snap({ parent_memory_id: root.id, content: "paris france" });
    await put(s, [root, q, r]);
    const travel = await postings(s, "travel");
    expect(Object.keys(travel).sort()).toEqual([q.id, r.id].sort());
    expect(await redis.hget(searchKeys(s).doc(r.id), DOC.previousSibling)).toBe(q.id);
    // r's posting for "travel" comes from tf = CONTEXT_WEIGHT
    const stats = Number(await redis.hget(searchKeys(s).stats, STATS.postingLengthSum));
    const rLen = Number(await redis.hget(searchKeys(s).doc(r.id), DOC.postingLength));
    // "paris france" + 0.5 × "travel" ("where", "did", "you" are stop words)
    expect(rLen).toBe(2 + CONTEXT_WEIGHT * 1);
    expect(travel[r.id]).toBeCloseTo(w(CONTEXT_WEIGHT, rLen, stats / 3), 6);

    await put(s, [{ ...q, version: 2, content: "which city did you visit" }]);
    expect(await postings(s, "travel")).toEqual({});
    expect(Object.keys(await postings(s, "citi")).sort()).toEqual([q.id, r.id].sort());

    await store.writes.remove(s, [{ id: q.id, version: 3 }]);
    expect(await postings(s, "citi")).toEqual({});
    expect(await redis.hget(searchKeys(s).doc(r.id), DOC.previousSibling)).toBe("");
    expect(Number(await redis.hget(searchKeys(s).doc(r.id), DOC.postingLength))).toBe(2);
  });

  test("a memory without terms stores its posting terms as an empty JSON array, not cjson's {}", async () => {
    const s = space();
    const m = snap({ content: "the of and" }); // stop words only
    await put(s, [m]);
    expect(await redis.hget(searchKeys(s).doc(m.id), DOC.postingTerms)).toBe("[]");
    await put(s, [{ ...m, version: 2, content: "kiwi" }]);
    expect(await redis.hget(searchKeys(s).doc(m.id), DOC.postingTerms)).toBe('["kiwi"]');
  });

  test("moving a memory to another parent re-links both threads", async () => {
    const s = space();
    const [p1, p2] = [snap(), snap()];
    const a = snap({ parent_memory_id: p1.id, content: "kiwi" });
    const b = snap({ parent_memory_id: p1.id, content: "lemon" });
    const c = snap({ parent_memory_id: p1.id, content: "mango" });
    await put(s, [p1, p2, a, b, c]);
    expect(await redis.hget(searchKeys(s).doc(c.id), DOC.previousSibling)).toBe(b.id);
    await put(s, [{ ...b, version: 2, parent_memory_id: p2.id }]);
    expect(await redis.hget(searchKeys(s).doc(c.id), DOC.previousSibling)).toBe(a.id);
    expect(await redis.hget(searchKeys(s).doc(b.id), DOC.previousSibling)).toBe("");
    expect(Object.keys(await postings(s, "lemon"))).toEqual([b.id]);
  });
});

describe("candidates", () => {
  test("lexical: Σ idf · w over the given terms, best first, restricted by filters", async () => {
    const s = space();
    const a = snap({ content: "red fox", tier: "short" });
    const b = snap({ content: "red red fox jumps", tier: "long" });
    const c = snap({ content: "blue whale", tier: "short" });
    await put(s, [a, b, c]);
    const all = await store.reads.candidates(s, {
      mode: "lex",
      k: 10,
      spec: toFilterSpec({}),
      terms: [
        ["red", 2],
        ["fox", 1],
      ],
    });
    expect(all.count).toBe(3);
    expect(all.hits.map((h) => h.id).sort()).toEqual([a.id, b.id].sort());
    const pa = await postings(s, "red");
    const pf = await postings(s, "fox");
    for (const h of all.hits) expect(h.score).toBeCloseTo(2 * pa[h.id]! + pf[h.id]!, 9);
    const short = await store.reads.candidates(s, {
      mode: "lex",
      k: 10,
      spec: toFilterSpec({ tier: "short" }),
      terms: [
        ["red", 2],
        ["fox", 1],
      ],
    });
    expect(short).toEqual({ count: 2, hits: [{ id: a.id, score: expect.any(Number) }] });
    expect(await redis.keys(`${searchKeys(s).prefix}tmp:*`)).toEqual([]);
  });

  test("browse: newest first within the filters and the created_at range [after, before)", async () => {
    const s = space();
    const ms = Array.from({ length: 6 }, (_, i) => snap({ tier: i % 2 ? "short" : "long" }));
    await put(s, ms);
    const newest = await store.reads.candidates(s, { mode: "browse", k: 3, spec: toFilterSpec({}) });
    expect(newest.hits.map((h) => h.id)).toEqual([ms[5]!.id, ms[4]!.id, ms[3]!.id]);
    const range = await store.reads.candidates(s, {
      mode: "browse",
      k: 10,
      spec: toFilterSpec({ created_after: ms[1]!.created_at, created_before: ms[4]!.created_at }),
    });
    expect(range.hits.map((h) => h.id)).toEqual([ms[3]!.id, ms[2]!.id, ms[1]!.id]);
    const shortInRange = await store.reads.candidates(s, {
      mode: "browse",
      k: 10,
      spec: toFilterSpec({ tier: "short", created_after: ms[1]!.created_at, created_before: ms[4]!.created_at }),
    });
    expect(shortInRange.hits.map((h) => h.id)).toEqual([ms[3]!.id, ms[1]!.id]);
  });

  test("the filter sets (lexical, browse) and the VSIM FILTER expression select the same memories", async () => {
    const s = space();
    const tags = Array.from({ length: 4 }, () => crypto.randomUUID());
    const ents = Array.from({ length: 2 }, () => crypto.randomUUID());
    const parents = [crypto.randomUUID(), crypto.randomUUID()];
    const pick = <X>(xs: X[], i: number) => xs[i % xs.length]!;
    const docs = Array.from({ length: 40 }, (_, i) =>
      snap({
        tier: pick(["short", "medium", "long"], i),
        content_type: pick(["text", "fact", "event"], i * 7),
        memory_nature: pick(["episodic", "semantic"], i * 3),
        tag_ids: tags.filter((_, j) => (i >> j) & 1),
        entity_ids: i % 5 === 0 ? [pick(ents, i)] : [],
        parent_memory_id: i % 4 === 0 ? null : pick(parents, i),
        metadata: { n: i % 3, kind: pick(["a", "b"], i), nested: { x: i % 2 } },
      }),
    );
    await store.writes.upsert(
      s,
      MODEL,
      docs.map((d, i) => ({ doc: toIndexDoc(d), version: 1, vector: vec(1, i / 40, 0.5, -0.2) })),
    );
    const created = docs.map((d) => d.created_at);
    const filterArb: fc.Arbitrary<FilterInput> = fc.record(
      {
        tier: fc.constantFrom("short", "medium", "long"),
        content_type: fc.constantFrom("text", "fact", "event"),
        memory_nature: fc.constantFrom("episodic", "semantic"),
        tags: fc.subarray(tags, { minLength: 1 }),
        tags_match: fc.constantFrom("any" as const, "all" as const),
        entity_id: fc.constantFrom(...ents, crypto.randomUUID()),
        parent_memory_id: fc.constantFrom(...parents),
        created_after: fc.constantFrom(...created),
        created_before: fc.constantFrom(...created),
        metadata: fc.constantFrom({ n: 1 }, { kind: "b" }, { nested: { x: 1 } }, { n: "1" }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(filterArb, async (f) => {
        const spec = toFilterSpec(f);
        const browse = await store.reads.candidates(s, { mode: "browse", k: 100, spec });
        const expr = toVsimFilter(spec);
        const near = await store.reads.nearest(s, {
          modelId: MODEL,
          vector: vec(1, 0.5, 0.5, -0.2),
          count: 100,
          filter: expr,
          filterEffort: 1000,
        });
        expect(new Set(near.map((h) => h.id))).toEqual(new Set(browse.hits.map((h) => h.id)));
        expect(browse.count).toBe(browse.hits.length);
        // …and both agree with the plain definition of the filters.
        const expected = docs.filter((d) => {
          const ca = Date.parse(d.created_at);
          if (f.tier && d.tier !== f.tier) return false;
          if (f.content_type && d.content_type !== f.content_type) return false;
          if (f.memory_nature && d.memory_nature !== f.memory_nature) return false;
          if (f.entity_id && !d.entity_ids.includes(f.entity_id)) return false;
          if (f.parent_memory_id && d.parent_memory_id !== f.parent_memory_id) return false;
          if (
            f.tags?.length &&
            (f.tags_match === "all"
              ? !f.tags.every((t) => d.tag_ids.includes(t))
              : !f.tags.some((t) => d.tag_ids.includes(t)))
          )
            return false;
          if (f.created_after && ca < Date.parse(f.created_after)) return false;
          if (f.created_before && ca >= Date.parse(f.created_before)) return false;
          for (const [k, v] of Object.entries(f.metadata ?? {}))
            if (JSON.stringify(d.metadata[k]) !== JSON.stringify(v)) return false;
          return true;
        });
        expect(new Set(browse.hits.map((h) => h.id))).toEqual(new Set(expected.map((d) => d.id)));
      }),
      { numRuns: 60 },
    );
  });
});

describe("lexical candidates on large postings (bounded reads per term)", () => {
  test("past the postings budget, the best-weighted documents still come first, with or without a filter", async () => {
    const s = space();
    const filler = Array.from({ length: LEXICAL_POSTINGS_BUDGET + 500 }, (_, i) =>
      snap({ content: `apple filler words number ${i} and more words here`, tier: i % 2 ? "short" : "long" }),
    );
    const best = Array.from({ length: 6 }, (_, i) =>
      snap({ content: "apple apple apple", tier: i % 2 ? "short" : "long" }),
    );
    for (let i = 0; i < filler.length; i += 250) await put(s, filler.slice(i, i + 250));
    await put(s, best);
    const term: [string, number][] = [["appl", 1]];
    const all = await store.reads.candidates(s, { mode: "lex", k: 6, spec: toFilterSpec({}), terms: term });
    expect(all.count).toBe(filler.length + 6);
    expect(new Set(all.hits.map((h) => h.id))).toEqual(new Set(best.map((b) => b.id)));
    const short = await store.reads.candidates(s, {
      mode: "lex",
      k: 3,
      spec: toFilterSpec({ tier: "short" }),
      terms: term,
    });
    expect(short.count).toBe(filler.length / 2 + 3);
    expect(new Set(short.hits.map((h) => h.id))).toEqual(new Set(best.filter((_, i) => i % 2).map((b) => b.id)));
    // Scores are ordered best first.
    for (let i = 1; i < all.hits.length; i++) expect(all.hits[i - 1]!.score).toBeGreaterThanOrEqual(all.hits[i]!.score);
  });

  test("a query's scratch sets are neither left behind nor written to the AOF", async () => {
    const s = space();
    const docs = Array.from({ length: postingsPerTerm(2) + 10 }, (_, i) =>
      snap({ content: `pear plum ${i}`, tier: i % 2 ? "short" : "long" }),
    );
    for (let i = 0; i < docs.length; i += 250) await put(s, docs.slice(i, i + 250));
    const aofSize = async () => Number(/aof_current_size:(\d+)/.exec(await redis.info("persistence"))![1]);
    const before = await aofSize();
    // Both terms are over the per-term cap (copied heads), and the filter is intersected.
    const hits = await store.reads.candidates(s, {
      mode: "lex",
      k: 5,
      spec: toFilterSpec({ tier: "short" }),
      terms: [
        ["pear", 1],
        ["plum", 1],
      ],
    });
    expect(hits.hits).toHaveLength(5);
    expect(await redis.keys(`${searchKeys(s).prefix}tmp:*`)).toEqual([]);
    expect(await aofSize()).toBe(before);
  });
});
