import { beforeAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import type { MemorySnapshot } from "../../contract/events";
import type { Embedder } from "../embedder";
import { DOC } from "../store/fields";
import { searchKeys } from "../store/keyspace";
import { createSearchStore, type SearchStore } from "../store";
import { createApplier, type Apply } from "./apply";
import { snapshotFixture } from "./snapshot.fixture";

/** The applier against a real Redis, with a counting fake model (4 dimensions). */
const db = privateRedis("search-apply");
let redis: Redis;
let store: SearchStore;
let apply: Apply;
const embedded: string[] = [];
const fake: Embedder = {
  model: "fake",
  dimensions: 4,
  async embed(texts) {
    embedded.push(...texts);
    return texts.map((t) => Float32Array.from([1, t.length, 0, 0]));
  },
};
const MODEL = "fake-4";

beforeAll(async () => {
  redis = await db.connect();
  store = createSearchStore(redis);
  apply = createApplier(store, { write: fake, background: fake }, MODEL);
});
let n = 0;
const space = () => ({ tenant: `ap${++n}`, env: "live" as const });
const snap = (over: Partial<MemorySnapshot> = {}): MemorySnapshot =>
  snapshotFixture({ content: "some content", tier: "short", ...over });
const attrs = async (s: ReturnType<typeof space>, id: string) =>
  JSON.parse(String(await redis.call("VGETATTR", searchKeys(s).vectors(MODEL), id)));

describe("applying changes", () => {
  test("the model runs only when the content (or the model) changed; repeats are no-ops", async () => {
    const s = space();
    embedded.length = 0;
    const m = snap({ content: "original text" });
    expect(await apply(s, { upserts: [m], deletes: [] })).toEqual({ indexed: 1, removed: 0 });
    expect(await apply(s, { upserts: [m], deletes: [] })).toEqual({ indexed: 0, removed: 0 });
    const tagged = { ...m, version: 2, tag_ids: ["t1"] };
    expect(await apply(s, { upserts: [tagged], deletes: [] })).toEqual({ indexed: 1, removed: 0 });
    expect((await attrs(s, m.id)).tags).toEqual(["t1"]);
    expect(embedded).toEqual(["original text"]);
    await apply(s, { upserts: [{ ...tagged, version: 3, content: "changed text" }], deletes: [] });
    expect(embedded).toEqual(["original text", "changed text"]);
  });

  test("within a batch the highest version wins, and a delete at or above an upsert's version wins", async () => {
    const s = space();
    const a = snap({ tier: "short" });
    const b = snap();
    const r = await apply(s, {
      upserts: [{ ...a, version: 3, tier: "long" }, a, b],
      deletes: [{ id: b.id, version: 2 }],
    });
    expect(r).toEqual({ indexed: 1, removed: 0 });
    expect((await attrs(s, a.id)).tier).toBe("long");
    expect(await redis.hget(searchKeys(s).doc(b.id), DOC.deleted)).toBe("1");
    expect(await apply(s, { upserts: [b], deletes: [] })).toEqual({ indexed: 0, removed: 0 });
  });

  test("a vector that went missing is embedded again instead of failing the update", async () => {
    const s = space();
    const m = snap();
    await apply(s, { upserts: [m], deletes: [] });
    await redis.del(searchKeys(s).vectors(MODEL));
    embedded.length = 0;
    expect(await apply(s, { upserts: [{ ...m, version: 2, tier: "long" }], deletes: [] })).toEqual({
      indexed: 1,
      removed: 0,
    });
    expect(embedded).toEqual([m.content]);
    expect((await attrs(s, m.id)).tier).toBe("long");
  });

  test("blank content is indexed with a placeholder embedding (the model cannot take an empty string)", async () => {
    const s = space();
    embedded.length = 0;
    await apply(s, { upserts: [snap({ content: "   " })], deletes: [] });
    expect(embedded).toEqual(["(empty)"]);
  });
});

describe("a long memory's chunks", () => {
  const chunky: Embedder = { ...fake, maxTokens: 20 };
  const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(" ");
  const elements = async (s: ReturnType<typeof space>) =>
    ((await redis.call("VCARD", searchKeys(s).vectors(MODEL))) as number) ?? 0;

  test("one vector per chunk, all with the memory's attributes; fewer chunks or a delete remove the rest", async () => {
    const s = space();
    const applyChunked = createApplier(store, { write: chunky, background: chunky }, MODEL);
    const m = snap({ content: words(60, "alpha"), tier: "short" });
    await applyChunked(s, { upserts: [m], deletes: [] });
    const n = Number(await redis.hget(searchKeys(s).doc(m.id), DOC.vectorCount));
    expect(n).toBeGreaterThan(3);
    expect(await elements(s)).toBe(n);
    expect(await store.admin.vectorCount(s, MODEL)).toBe(1);
    const tagged = { ...m, version: 2, tier: "long" as const };
    await applyChunked(s, { upserts: [tagged], deletes: [] });
    for (let i = 1; i < n; i++) {
      const a = JSON.parse(String(await redis.call("VGETATTR", searchKeys(s).vectors(MODEL), `${m.id}#${i}`)));
      expect(a.tier).toBe("long");
    }
    await applyChunked(s, { upserts: [{ ...tagged, version: 3, content: words(25, "beta") }], deletes: [] });
    const fewer = Number(await redis.hget(searchKeys(s).doc(m.id), DOC.vectorCount));
    expect(fewer).toBeLessThan(n);
    expect(await elements(s)).toBe(fewer);
    expect(await store.admin.vectorCount(s, MODEL)).toBe(1);
    await applyChunked(s, { upserts: [], deletes: [{ id: m.id, version: 4 }] });
    expect(await elements(s)).toBe(0);
    expect(await store.admin.vectorCount(s, MODEL)).toBe(0);
  });

  test("a rebuild embeds in chunks a long memory indexed whole before chunking (the layout before it)", async () => {
    const s = space();
    const whole = createApplier(store, { write: { ...fake, maxTokens: 100_000 }, background: fake }, MODEL);
    const m = snap({ content: words(60, "gamma") });
    await whole(s, { upserts: [m], deletes: [] });
    await redis.hdel(searchKeys(s).doc(m.id), DOC.vectorCount);
    expect(await elements(s)).toBe(1);
    const applyChunked = createApplier(store, { write: chunky, background: chunky }, MODEL);
    await applyChunked(s, { upserts: [m], deletes: [] }, { unversioned: true, lane: "background" });
    const n = Number(await redis.hget(searchKeys(s).doc(m.id), DOC.vectorCount));
    expect(n).toBeGreaterThan(3);
    expect(await elements(s)).toBe(n);
    expect(await store.admin.vectorCount(s, MODEL)).toBe(1);
  });
});
