import { describe, expect, test } from "bun:test";
import { DOC, STATS } from "./fields";
import { searchKeys } from "./keyspace";
import { CONTEXT_WEIGHT } from "../ranking/bm25";
import { MODEL, searchStoreFixture, snap, space, w } from "./store.fixture";

/** The store's writes: versions, tombstones, vectors per model, BM25 postings and thread context. */
const fx = searchStoreFixture("search-store-writes");
const { put, postings } = fx;

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
    expect(await fx.store.writes.remove(s, [{ id: m.id, version: 2 }])).toEqual(["ok"]);
    expect(await postings(s, "gamma")).toEqual({});
    expect(await fx.redis.zcard(searchKeys(s).all)).toBe(0);
    expect(Number(await fx.redis.call("VCARD", searchKeys(s).vectors(MODEL)))).toBe(0);
    expect(await put(s, [{ ...m, version: 2 }])).toEqual(["stale"]);
    expect(await put(s, [m], { version: -1 })).toEqual(["stale"]);
    expect(await fx.redis.pttl(searchKeys(s).doc(m.id))).toBeGreaterThan(7 * 24 * 3600_000);
    // A delete that arrives before the create still wins over it.
    const early = snap({ version: 1 });
    expect(await fx.store.writes.remove(s, [{ id: early.id, version: 2 }])).toEqual(["absent"]);
    expect(await put(s, [early])).toEqual(["stale"]);
  });

  test("an unknown version (rebuild) inserts at 0, and only replaces known data when it is newer", async () => {
    const s = space();
    const m = snap({ content: "delta" });
    expect(await put(s, [m], { version: -1 })).toEqual(["ok"]);
    expect(await fx.redis.hget(searchKeys(s).doc(m.id), DOC.version)).toBe("0");
    expect(await put(s, [{ ...m, version: 1, content: "epsilon" }])).toEqual(["ok"]);
    expect(await put(s, [{ ...m, content: "zeta" }], { version: -1 })).toEqual(["stale"]);
    const newer = { ...m, content: "zeta", updated_at: new Date(Date.parse(m.updated_at) + 5000).toISOString() };
    expect(await put(s, [newer], { version: -1 })).toEqual(["ok"]);
    expect(await fx.redis.hget(searchKeys(s).doc(m.id), DOC.version)).toBe("1");
    expect(Object.keys(await postings(s, "zeta"))).toEqual([m.id]);
  });

  test("a rebuild for another model, not newer, replaces only the vector, keeping the indexed fields", async () => {
    const s = space();
    const m = snap({ tier: "short", content: "theta" });
    await put(s, [m]);
    await put(s, [{ ...m, version: 2, tier: "long" }], { vector: null });
    // The listing the rebuild read is older than the indexed version 2 (tier short).
    expect(await put(s, [m], { version: -1, model: "other-4" })).toEqual(["revectored"]);
    expect(Number(await fx.redis.call("VCARD", searchKeys(s).vectors(MODEL)))).toBe(0);
    expect(JSON.parse(String(await fx.redis.call("VGETATTR", searchKeys(s).vectors("other-4"), m.id))).tier).toBe(
      "long",
    );
    expect(await fx.redis.hmget(searchKeys(s).doc(m.id), DOC.version, DOC.model)).toEqual(["2", "other-4"]);
    expect(await put(s, [m], { version: -1, model: "other-4" })).toEqual(["stale"]);
  });

  test("without a vector the stored one is kept, or 'need_vector' when there is none for this model", async () => {
    const s = space();
    const m = snap({ tier: "short" });
    await put(s, [m]);
    expect(await put(s, [{ ...m, version: 2, tier: "long" }], { vector: null })).toEqual(["ok"]);
    expect(JSON.parse(String(await fx.redis.call("VGETATTR", searchKeys(s).vectors(MODEL), m.id))).tier).toBe("long");
    expect(await put(s, [{ ...m, version: 3 }], { vector: null, model: "other-4" })).toEqual(["need_vector"]);
    expect(await put(s, [{ ...m, version: 3 }], { model: "other-4" })).toEqual(["ok"]);
    expect(Number(await fx.redis.call("VCARD", searchKeys(s).vectors(MODEL)))).toBe(0);
    expect(Number(await fx.redis.call("VCARD", searchKeys(s).vectors("other-4")))).toBe(1);
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
    expect(await fx.redis.hget(searchKeys(s).stats, STATS.postingLengthSum)).toBe("8");
    await fx.store.writes.reweight(s, [a.id, b.id]);
    expect((await postings(s, "appl"))[a.id]).toBeCloseTo(w(2, 3, 4), 9);
    expect(await fx.redis.hget(searchKeys(s).stats, STATS.postingLengthSum)).toBe("8");
  });

  test("a reply carries its previous sibling's terms at the context weight; edits and deletes re-link", async () => {
    const s = space();
    const root = snap({ content: "session" });
    const q = snap({ parent_memory_id: root.id, content: "where did you travel" });
    const r = snap({ parent_memory_id: root.id, content: "paris france" });
    await put(s, [root, q, r]);
    const travel = await postings(s, "travel");
    expect(Object.keys(travel).sort()).toEqual([q.id, r.id].sort());
    expect(await fx.redis.hget(searchKeys(s).doc(r.id), DOC.previousSibling)).toBe(q.id);
    // r's posting for "travel" comes from tf = CONTEXT_WEIGHT
    const stats = Number(await fx.redis.hget(searchKeys(s).stats, STATS.postingLengthSum));
    const rLen = Number(await fx.redis.hget(searchKeys(s).doc(r.id), DOC.postingLength));
    // "paris france" + 0.5 × "travel" ("where", "did", "you" are stop words)
    expect(rLen).toBe(2 + CONTEXT_WEIGHT * 1);
    expect(travel[r.id]).toBeCloseTo(w(CONTEXT_WEIGHT, rLen, stats / 3), 6);

    await put(s, [{ ...q, version: 2, content: "which city did you visit" }]);
    expect(await postings(s, "travel")).toEqual({});
    expect(Object.keys(await postings(s, "citi")).sort()).toEqual([q.id, r.id].sort());

    await fx.store.writes.remove(s, [{ id: q.id, version: 3 }]);
    expect(await postings(s, "citi")).toEqual({});
    expect(await fx.redis.hget(searchKeys(s).doc(r.id), DOC.previousSibling)).toBe("");
    expect(Number(await fx.redis.hget(searchKeys(s).doc(r.id), DOC.postingLength))).toBe(2);
  });

  test("a memory without terms stores its posting terms as an empty JSON array, not cjson's {}", async () => {
    const s = space();
    const m = snap({ content: "the of and" }); // stop words only
    await put(s, [m]);
    expect(await fx.redis.hget(searchKeys(s).doc(m.id), DOC.postingTerms)).toBe("[]");
    await put(s, [{ ...m, version: 2, content: "kiwi" }]);
    expect(await fx.redis.hget(searchKeys(s).doc(m.id), DOC.postingTerms)).toBe('["kiwi"]');
  });

  test("moving a memory to another parent re-links both threads", async () => {
    const s = space();
    const [p1, p2] = [snap(), snap()];
    const a = snap({ parent_memory_id: p1.id, content: "kiwi" });
    const b = snap({ parent_memory_id: p1.id, content: "lemon" });
    const c = snap({ parent_memory_id: p1.id, content: "mango" });
    await put(s, [p1, p2, a, b, c]);
    expect(await fx.redis.hget(searchKeys(s).doc(c.id), DOC.previousSibling)).toBe(b.id);
    await put(s, [{ ...b, version: 2, parent_memory_id: p2.id }]);
    expect(await fx.redis.hget(searchKeys(s).doc(c.id), DOC.previousSibling)).toBe(a.id);
    expect(await fx.redis.hget(searchKeys(s).doc(b.id), DOC.previousSibling)).toBe("");
    expect(Object.keys(await postings(s, "lemon"))).toEqual([b.id]);
  });
});
