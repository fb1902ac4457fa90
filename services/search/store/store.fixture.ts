import { beforeAll } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { hashOfPairs } from "../../kit/redis-replies";
import type { Space } from "../../kit/space";
import type { MemorySnapshot } from "../../contract/events";
import { searchKeys } from "./keyspace";
import { toIndexDoc } from "../indexer";
import { B, K1 } from "../ranking/bm25";
import { createSearchStore, type SearchStore } from "./index";
import { snapshotFixture } from "../indexer/snapshot.fixture";

/** Shared by the store's tests (writes.test.ts, reads.test.ts): its Lua scripts on a real, private Redis 8. */
export const MODEL = "test-4";

let n = 0;
export const space = (): Space => ({ tenant: `st${++n}`, env: "live" });
let clock = Date.parse("2024-01-01T00:00:00.000Z");
/** A snapshot created one millisecond after the previous one. */
export const snap = (over: Partial<MemorySnapshot> = {}): MemorySnapshot =>
  snapshotFixture(over, new Date(clock++).toISOString());
export const vec = (...xs: number[]) => Float32Array.from(xs.length ? xs : [1, 0, 0, 0]);
/** The BM25 weight of a term seen `tf` times in a document of length `len`. */
export const w = (tf: number, len: number, avgdl: number) => (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avgdl));

/** The store on the test file's own Redis (call at the top level of the file; ready in its tests). */
export function searchStoreFixture(name: string) {
  const db = privateRedis(name);
  const fx = {
    redis: undefined as unknown as Redis,
    store: undefined as unknown as SearchStore,
    /** Upserts as the indexer does: the snapshot's version and the fixture's model and vector unless told. */
    put: (
      s: Space,
      snaps: MemorySnapshot[],
      opts: { vector?: Float32Array | null; version?: number; model?: string } = {},
    ) =>
      fx.store.writes.upsert(
        s,
        opts.model ?? MODEL,
        snaps.map((x) => ({
          doc: toIndexDoc(x),
          version: opts.version ?? x.version,
          vectors: opts.vector === undefined ? [vec()] : opts.vector && [opts.vector],
        })),
      ),
    /** A term's postings: memory id → weight. */
    postings: async (s: Space, term: string) => {
      const flat = (
        (await fx.redis.call("ZRANGE", searchKeys(s).term(term), 0, -1, "WITHSCORES")) as unknown[]
      ).flat() as string[];
      return Object.fromEntries(Object.entries(hashOfPairs(flat)).map(([id, weight]) => [id, Number(weight)]));
    },
  };
  beforeAll(async () => {
    fx.redis = await db.connect();
    fx.store = createSearchStore(fx.redis);
  });
  return fx;
}
