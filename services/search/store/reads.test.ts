import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { searchKeys } from "./keyspace";
import { toIndexDoc } from "../indexer";
import { toFilterSpec, toVsimFilter, type FilterInput } from "../filters";
import { LEXICAL_POSTINGS_BUDGET, MAIN_THREAD_VSIM_MAX_COUNT, postingsPerTerm, vsimArgs } from "./reads";
import { MODEL, searchStoreFixture, snap, space, vec } from "./store.fixture";

/** The store's candidate reads: lexical, browse and the VSIM filter, bounded on large postings. */
const fx = searchStoreFixture("search-store-reads");
const { put, postings } = fx;
/** Many memories, upserted 250 at a time (as the indexer's batches are). */
const putAll = async (s: ReturnType<typeof space>, snaps: Parameters<typeof put>[1]) => {
  for (let i = 0; i < snaps.length; i += 250) await put(s, snaps.slice(i, i + 250));
};

describe("candidates", () => {
  test("lexical: Σ idf · w over the given terms, best first, restricted by filters", async () => {
    const s = space();
    const a = snap({ content: "red fox", tier: "short" });
    const b = snap({ content: "red red fox jumps", tier: "long" });
    const c = snap({ content: "blue whale", tier: "short" });
    await put(s, [a, b, c]);
    const all = await fx.store.reads.candidates(s, {
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
    const short = await fx.store.reads.candidates(s, {
      mode: "lex",
      k: 10,
      spec: toFilterSpec({ tier: "short" }),
      terms: [
        ["red", 2],
        ["fox", 1],
      ],
    });
    expect(short).toEqual({ count: 2, hits: [{ id: a.id, score: expect.any(Number) }] });
    expect(await fx.redis.keys(`${searchKeys(s).prefix}tmp:*`)).toEqual([]);
  });

  test("browse: newest first within the filters and the created_at range [after, before)", async () => {
    const s = space();
    const ms = Array.from({ length: 6 }, (_, i) => snap({ tier: i % 2 ? "short" : "long" }));
    await put(s, ms);
    const newest = await fx.store.reads.candidates(s, { mode: "browse", k: 3, spec: toFilterSpec({}) });
    expect(newest.hits.map((h) => h.id)).toEqual([ms[5]!.id, ms[4]!.id, ms[3]!.id]);
    const range = await fx.store.reads.candidates(s, {
      mode: "browse",
      k: 10,
      spec: toFilterSpec({ created_after: ms[1]!.created_at, created_before: ms[4]!.created_at }),
    });
    expect(range.hits.map((h) => h.id)).toEqual([ms[3]!.id, ms[2]!.id, ms[1]!.id]);
    const shortInRange = await fx.store.reads.candidates(s, {
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
    await fx.store.writes.upsert(
      s,
      MODEL,
      docs.map((d, i) => ({ doc: toIndexDoc(d), version: 1, vectors: [vec(1, i / 40, 0.5, -0.2)] })),
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
        const browse = await fx.store.reads.candidates(s, { mode: "browse", k: 100, spec });
        const expr = toVsimFilter(spec);
        const near = await fx.store.reads.nearest(s, {
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
    await putAll(s, filler);
    await put(s, best);
    const term: [string, number][] = [["appl", 1]];
    const all = await fx.store.reads.candidates(s, { mode: "lex", k: 6, spec: toFilterSpec({}), terms: term });
    expect(all.count).toBe(filler.length + 6);
    expect(new Set(all.hits.map((h) => h.id))).toEqual(new Set(best.map((b) => b.id)));
    const short = await fx.store.reads.candidates(s, {
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
    await putAll(s, docs);
    const aofSize = async () => Number(/aof_current_size:(\d+)/.exec(await fx.redis.info("persistence"))![1]);
    const before = await aofSize();
    // Both terms are over the per-term cap (copied heads), and the filter is intersected.
    const hits = await fx.store.reads.candidates(s, {
      mode: "lex",
      k: 5,
      spec: toFilterSpec({ tier: "short" }),
      terms: [
        ["pear", 1],
        ["plum", 1],
      ],
    });
    expect(hits.hits).toHaveLength(5);
    expect(await fx.redis.keys(`${searchKeys(s).prefix}tmp:*`)).toEqual([]);
    expect(await aofSize()).toBe(before);
  });

  test("a query's large scratch sets are freed off Redis's main thread (UNLINK)", async () => {
    const s = space();
    const docs = Array.from({ length: postingsPerTerm(1) + 10 }, (_, i) => snap({ content: `quince ${i}` }));
    await putAll(s, docs);
    const lazyFreed = async () => Number(/lazyfreed_objects:(\d+)/.exec(await fx.redis.info("memory"))![1]);
    const before = await lazyFreed();
    const found = await fx.store.reads.candidates(s, {
      mode: "lex",
      k: 5,
      spec: toFilterSpec({}),
      terms: [["quinc", 1]],
    });
    expect(found.hits).toHaveLength(5);
    // The head copied from the long postings and the sum: both past Redis's lazy-free threshold (64 elements).
    expect(await lazyFreed()).toBeGreaterThanOrEqual(before + 2);
    expect(await fx.redis.keys(`${searchKeys(s).prefix}tmp:*`)).toEqual([]);
  });
});

describe("VSIM's arguments", () => {
  const query = { modelId: MODEL, vector: vec(1, 0, 0, 0), count: 30, filter: null };
  test("an unfiltered search of a query's candidates runs on Redis's main thread (NOTHREAD)", () => {
    expect(vsimArgs("k", query)).toContain("NOTHREAD");
    expect(vsimArgs("k", { ...query, count: MAIN_THREAD_VSIM_MAX_COUNT })).toContain("NOTHREAD");
  });
  test("a filtered or oversampled search keeps its thread (FILTER-EF or a large COUNT bounds its work)", () => {
    const filtered = vsimArgs("k", { ...query, filter: ".tier == 1", filterEffort: 5000 });
    expect(filtered).not.toContain("NOTHREAD");
    expect(filtered.slice(-4)).toEqual(["FILTER", ".tier == 1", "FILTER-EF", 5000]);
    expect(vsimArgs("k", { ...query, count: MAIN_THREAD_VSIM_MAX_COUNT + 1 })).not.toContain("NOTHREAD");
  });
  test("on a real Redis, NOTHREAD answers what the threaded search answers", async () => {
    const s = space();
    const docs = Array.from({ length: 40 }, (_, i) => snap({ content: `memory ${i}` }));
    await put(s, docs);
    const asked = { ...query, vector: vec(1, 0.5, 0.5, -0.2), count: 20 };
    const near = await fx.store.reads.nearest(s, asked);
    const threaded = vsimArgs(searchKeys(s).vectors(MODEL), asked).filter((a) => a !== "NOTHREAD");
    const flat = (await fx.redis.call("VSIM", ...threaded)) as string[];
    expect(near.length).toBeGreaterThan(0);
    expect(near.map((h) => h.id)).toEqual(flat.filter((_, i) => i % 2 === 0).map((e) => e.split("#")[0]!));
  });
});
