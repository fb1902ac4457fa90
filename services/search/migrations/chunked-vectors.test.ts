import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import type { Space } from "../../kit/space";
import type { Embedder } from "../embedder";
import { createApplier } from "../indexer";
import { contentHash } from "../indexer/document";
import { snapshotFixture } from "../indexer/snapshot.fixture";
import { createSearchStore, type SearchStore } from "../store";
import { DOC } from "../store/fields";
import { searchKeys } from "../store/keyspace";
import { chunkedVectorsStep } from "./chunked-vectors";

const db = privateRedis("search-migrations");
let redis: Redis;
let store: SearchStore;
const MODEL = "fake-4";
const fake: Embedder = {
  model: "fake",
  dimensions: 4,
  maxTokens: 20,
  embed: async (texts) => texts.map((t) => Float32Array.from([1, t.length, 0, 0])),
};
const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
const elements = async (s: Space) => Number(await redis.call("VCARD", searchKeys(s).vectors(MODEL)));

beforeAll(async () => {
  redis = await db.connect();
  store = createSearchStore(redis);
});

describe("writing before data layout 3 (expand: the release before reads what this one writes)", () => {
  test("a long memory is written whole, as the release before wrote it; after the switch, in chunks", async () => {
    const s = { tenant: "whole", env: "live" as const };
    let chunked = false;
    const apply = createApplier(store, { write: fake, background: fake }, MODEL, () => chunked);
    const m = snapshotFixture({ content: long });
    await apply(s, { upserts: [m], deletes: [] });
    expect(await elements(s)).toBe(1);
    expect(await redis.hget(searchKeys(s).doc(m.id), DOC.contentHash)).toBe(contentHash(long));
    expect(await redis.hexists(searchKeys(s).doc(m.id), DOC.vectorCount)).toBe(0);
    chunked = true;
    await apply(s, { upserts: [m], deletes: [] }, { unversioned: true, lane: "background" });
    expect(await elements(s)).toBeGreaterThan(3);
  });
});

describe("the step from data layout 2 to 3", () => {
  const spaces = Array.from({ length: 7 }, (_, i) => ({ tenant: `mig${i}`, env: "live" as const }));

  test("rebuilds every index once, a few a batch, and a dry run rebuilds none", async () => {
    await redis.flushall();
    for (const s of spaces) await redis.zadd(searchKeys(s).all, 1, "x");
    await redis.set("m:{mig0:live}:unrelated", "1");
    const rebuilt: string[] = [];
    const step = chunkedVectorsStep(redis, {
      rebuild: async (s) => {
        rebuilt.push(s.tenant);
        return { status: "done", total: 0, indexed: 0, removed: 0 };
      },
    });
    let dry = { cursor: "0", seen: 0 };
    do {
      const b = await step.batch(dry.cursor, 3, { dryRun: true });
      dry = { cursor: b.cursor, seen: dry.seen + b.seen };
    } while (dry.cursor !== "0");
    expect(dry.seen).toBe(7);
    expect(rebuilt).toEqual([]);
    let cursor = "0";
    let batches = 0;
    do {
      const b = await step.batch(cursor, 3, { dryRun: false });
      expect(b.changed).toBe(b.seen);
      cursor = b.cursor;
      batches++;
    } while (cursor !== "0");
    expect(rebuilt.sort()).toEqual(spaces.map((s) => s.tenant).sort());
    expect(batches).toBeGreaterThanOrEqual(1);
  });

  test("waits for a rebuild that holds the index, then rebuilds it itself", async () => {
    const s = { tenant: "held", env: "test" as const };
    await redis.zadd(searchKeys(s).all, 1, "x");
    const statuses: ("busy" | "done")[] = ["busy", "busy", "done"];
    const calls: string[] = [];
    const step = chunkedVectorsStep(redis, {
      rebuild: async (space) => {
        calls.push(space.tenant);
        return { status: space.tenant === "held" ? statuses.shift()! : "done", total: 0, indexed: 0, removed: 0 };
      },
    });
    let cursor = "0";
    do cursor = (await step.batch(cursor, 100, { dryRun: false })).cursor;
    while (cursor !== "0");
    expect(calls.filter((t) => t === "held")).toEqual(["held", "held", "held"]);
  });
});
