import { beforeAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import type { MemorySnapshot } from "../../contract/events";
import { createLogger } from "../../kit/log";
import type { Embedder } from "../embedder";
import type { MemoryReader } from "../memories-client";
import { createSearchStore, type SearchStore } from "../store";
import { createApplier, type Apply } from "./apply";
import { createRebuilder } from "./rebuild";
import { INDEX_LAYOUT } from "../store/fields";
import { snapshotFixture } from "./snapshot.fixture";

/** `ensure` (run before every query) against a real Redis, with a fake memories store. */
const db = privateRedis("search-rebuild");
let redis: Redis;
let store: SearchStore;
let apply: Apply;
const fake: Embedder = {
  model: "fake",
  dimensions: 4,
  embed: async (texts) => texts.map((t) => Float32Array.from([1, t.length, 0, 0])),
};
const MODEL = "fake-4";

beforeAll(async () => {
  redis = await db.connect();
  store = createSearchStore(redis);
  apply = createApplier(store, { write: fake, background: fake }, MODEL);
});
const snap = (i: number): MemorySnapshot =>
  snapshotFixture(
    { content: `memory number ${i}`, tier: "short" },
    new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
  );

/** A memories store holding `stored`; records how often a rebuild read it all. */
function storeOf(stored: MemorySnapshot[]) {
  const reads = { all: 0 };
  const reader = {
    count: async () => stored.length,
    async *all() {
      reads.all++;
      yield { snapshots: stored.map((s) => ({ ...s, version: -1 })), total: stored.length };
    },
  } as unknown as MemoryReader;
  return { reader, reads };
}

/** The rebuilder of the fake model over the test's store, reading from `reader`. */
const rebuilderOf = (reader: MemoryReader) =>
  createRebuilder({ store, apply, reader, modelId: MODEL, dimensions: 4, log: createLogger({}, "error") });

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await check()); i++) await Bun.sleep(20);
};

describe("ensure: the index of a space without meta", () => {
  test("complete (every stored memory indexed with a vector): marked ready, no rebuild", async () => {
    const space = { tenant: "complete", env: "live" as const };
    const stored = [snap(1), snap(2), snap(3)];
    await apply(space, { upserts: stored, deletes: [] });
    const { reader, reads } = storeOf(stored);
    const rebuilder = rebuilderOf(reader);
    expect(await store.admin.meta(space)).toBeNull();
    await rebuilder.ensure(space);
    expect(await store.admin.meta(space)).toMatchObject({ model: MODEL, state: "ready" });
    expect(reads.all).toBe(0);
  });

  test("missing a memory of the store: rebuilt from it in the background", async () => {
    const space = { tenant: "incomplete", env: "live" as const };
    const stored = [snap(1), snap(2), snap(3)];
    await apply(space, { upserts: stored.slice(0, 2), deletes: [] });
    const { reader, reads } = storeOf(stored);
    const rebuilder = rebuilderOf(reader);
    await rebuilder.ensure(space);
    await until(async () => (await store.admin.meta(space))?.state === "ready");
    expect(reads.all).toBe(1);
    expect(await store.admin.size(space)).toBe(3);
  });
});

describe("ensure: an index of another layout", () => {
  test("is rebuilt, and its documents are written in the current layout", async () => {
    const space = { tenant: "old-layout", env: "live" as const };
    const stored = [snap(1), snap(2)];
    await apply(space, { upserts: stored, deletes: [] });
    await store.admin.setMeta(space, { model: MODEL, dims: 4, state: "ready", builtAt: 1, layout: "" });
    const { reader, reads } = storeOf(stored);
    await rebuilderOf(reader).ensure(space);
    await until(async () => (await store.admin.meta(space))?.layout === INDEX_LAYOUT);
    expect(reads.all).toBe(1);
    expect(await store.admin.meta(space)).toMatchObject({ state: "ready", layout: INDEX_LAYOUT });
  });
});
