import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { MemorySnapshot } from "../../contract/events";
import { toFilterSpec, toVsimFilter, type FilterInput } from "../filters";
import { toIndexDoc } from "../indexer";
import { DOC } from "./fields";
import { searchKeys } from "./keyspace";
import { MODEL, searchStoreFixture, snap, space, vec } from "./store.fixture";

/**
 * A memory's life in the index: the thread's order (occurred_at, then created_at, then id) behind the
 * previous sibling, whatever order the memories are indexed in; the occurred_at, as_of and latest filters
 * on every side; expired memories known as such.
 */
const fx = searchStoreFixture("search-store-life");
const prevOf = async (s: ReturnType<typeof space>, id: string) =>
  fx.redis.hget(searchKeys(s).doc(id), DOC.previousSibling);
const iso = (ms: number) => new Date(ms).toISOString();
const T0 = Date.parse("2023-05-08T13:00:00.000Z");

describe("thread order", () => {
  test("the previous sibling follows occurred_at (ties: created_at, then id), in any indexing order", async () => {
    const root = snap();
    // Created in this order; occurred in another, with ties on occurred_at and on both.
    const turns = [3, 1, 2, 1, 0, 2, 2].map((k, i) =>
      snap({ parent_memory_id: root.id, content: `turn ${i}`, occurred_at: iso(T0 + k * 60_000) }),
    );
    turns.push({
      ...snap({ parent_memory_id: root.id }),
      created_at: turns[6]!.created_at,
      occurred_at: turns[6]!.occurred_at,
    });
    const ordered = [...turns].sort(
      (a, b) =>
        Date.parse(a.occurred_at!) - Date.parse(b.occurred_at!) ||
        Date.parse(a.created_at) - Date.parse(b.created_at) ||
        (a.id < b.id ? -1 : 1),
    );
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(turns, { minLength: turns.length }), async (arrival) => {
        const s = space();
        await fx.put(s, [root]);
        for (const t of arrival) await fx.put(s, [t]);
        const prevs = await Promise.all(ordered.map((t) => prevOf(s, t.id)));
        expect(prevs).toEqual(["", ...ordered.slice(0, -1).map((t) => t.id)]);
      }),
      { numRuns: 15 },
    );
  });

  test("a new occurred_at moves a memory: its old and new next siblings and itself re-link; a delete too", async () => {
    const s = space();
    const root = snap();
    const [a, b, c, d] = [0, 1, 2, 3].map((k) =>
      snap({ parent_memory_id: root.id, content: `t${k}`, occurred_at: iso(T0 + k * 60_000) }),
    );
    await fx.put(s, [root, a!, b!, c!, d!]);
    expect(await prevOf(s, c!.id)).toBe(b!.id);
    await fx.put(s, [{ ...b!, version: 2, occurred_at: iso(T0 + 10 * 60_000) }]);
    expect([await prevOf(s, c!.id), await prevOf(s, d!.id), await prevOf(s, b!.id)]).toEqual([a!.id, c!.id, d!.id]);
    await fx.store.writes.remove(s, [{ id: d!.id, version: 2 }]);
    expect(await prevOf(s, b!.id)).toBe(c!.id);
    expect(await fx.redis.zcard(searchKeys(s).threadOrder(root.id))).toBe(3);
  });

  test("a document without a thread order (another layout) is rewritten by a rebuild", async () => {
    const s = space();
    const root = snap();
    const [a, b] = [snap({ parent_memory_id: root.id }), snap({ parent_memory_id: root.id })];
    await fx.put(s, [root, a, b]);
    const k = searchKeys(s);
    for (const m of [root, a, b]) await fx.redis.hdel(k.doc(m.id), DOC.threadOrder);
    await fx.redis.del(k.threadOrder(root.id));
    expect(await fx.put(s, [b], { version: -1 })).toEqual(["ok"]);
    expect(await fx.put(s, [a], { version: -1 })).toEqual(["ok"]);
    expect(await prevOf(s, b.id)).toBe(a.id);
    // Once written in the current layout, a rebuild without anything newer changes nothing.
    expect(await fx.put(s, [b], { version: -1 })).toEqual(["stale"]);
  });
});

describe("lifecycle filters", () => {
  test("occurred_at ranges, as_of, latest_only: lexical, browse and VSIM FILTER select as defined", async () => {
    const s = space();
    const years = (i: number) => Date.UTC(2000 + (i % 12), 0, 1);
    const docs: MemorySnapshot[] = Array.from({ length: 36 }, (_, i) =>
      snap({
        content: `fact ${i} kiwi`,
        tier: ["short", "long"][i % 2]!,
        occurred_at: iso(years(i)),
        ...(i % 3 === 0 ? { superseded_by: crypto.randomUUID(), valid_to: iso(years(i + 5)) } : {}),
      }),
    );
    await fx.store.writes.upsert(
      s,
      MODEL,
      docs.map((d, i) => ({ doc: toIndexDoc(d), version: 1, vectors: [vec(1, i / 36, 0.3, -0.1)] })),
    );
    const instants = Array.from({ length: 14 }, (_, i) => iso(Date.UTC(1999 + i, 6, 1)));
    const filterArb: fc.Arbitrary<FilterInput> = fc.record(
      {
        tier: fc.constantFrom("short", "long"),
        occurred_after: fc.constantFrom(...instants, ...docs.map((d) => d.occurred_at!)),
        occurred_before: fc.constantFrom(...instants, ...docs.map((d) => d.occurred_at!)),
        latest_only: fc.boolean(),
        as_of: fc.constantFrom(...instants, ...docs.map((d) => d.valid_to ?? d.occurred_at!)),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(filterArb, async (f) => {
        const spec = toFilterSpec(f);
        const expected = docs.filter((d) => {
          const oa = Date.parse(d.occurred_at!);
          if (f.tier && d.tier !== f.tier) return false;
          if (f.occurred_after && oa < Date.parse(f.occurred_after)) return false;
          if (f.occurred_before && oa >= Date.parse(f.occurred_before)) return false;
          if (f.latest_only && d.superseded_by) return false;
          if (f.as_of && (oa > Date.parse(f.as_of) || (d.valid_to && Date.parse(d.valid_to) <= Date.parse(f.as_of))))
            return false;
          return true;
        });
        const want = new Set(expected.map((d) => d.id));
        const browse = await fx.store.reads.candidates(s, { mode: "browse", k: 100, spec });
        expect(new Set(browse.hits.map((h) => h.id))).toEqual(want);
        expect(browse.count).toBe(want.size);
        const lex = await fx.store.reads.candidates(s, { mode: "lex", k: 100, spec, terms: [["kiwi", 1]] });
        expect(new Set(lex.hits.map((h) => h.id))).toEqual(want);
        const near = await fx.store.reads.nearest(s, {
          modelId: MODEL,
          vector: vec(1, 0.5, 0.3, -0.1),
          count: 100,
          filter: toVsimFilter(spec),
          filterEffort: 1000,
        });
        expect(new Set(near.map((h) => h.id))).toEqual(want);
      }),
      { numRuns: 80 },
    );
    // No scratch set outlives a query.
    expect(await fx.redis.keys(`${searchKeys(s).prefix}tmp:*`)).toEqual([]);
  });

  test("expired memories are counted and named, until their delete removes them", async () => {
    const s = space();
    const now = Date.now();
    const gone = snap({ expires_at: iso(now - 1000) });
    const later = snap({ expires_at: iso(now + 60_000) });
    const plain = snap();
    await fx.put(s, [gone, later, plain]);
    expect((await fx.store.reads.termStats(s, [], MODEL, undefined, now)).expired).toBe(1);
    expect(await fx.store.reads.expiredAmong(s, [gone.id, later.id, plain.id], now)).toEqual(new Set([gone.id]));
    await fx.store.writes.remove(s, [{ id: gone.id, version: 2 }]);
    expect((await fx.store.reads.termStats(s, [], MODEL, undefined, now)).expired).toBe(0);
    await fx.put(s, [{ ...later, version: 2, expires_at: null }]);
    expect(await fx.redis.zcard(searchKeys(s).expiring)).toBe(0);
  });
});
