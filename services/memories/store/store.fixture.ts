import { beforeAll } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { keyspace } from "../../memory-data/keyspace";
import type { Space } from "../../kit/space";
import { createMemoryStore, type MemoryStore } from "./";
import type { MemoryRow } from "./record";

/**
 * Shared by the store's tests (store.test.ts, and the features' tests: memory/list.test.ts...): the store against a
 * real, private Redis. The parts the tags service writes (tag hashes and link sets) are seeded here directly.
 */
let n = 0;
export const space = (): Space => ({ tenant: `store${++n}`, env: "live" });
export const fields = (over: Record<string, unknown> = {}) => ({
  content: "c",
  content_type: "text",
  tier: "medium",
  memory_nature: "episodic",
  parent: null,
  external_id: null,
  metadata: {},
  ...over,
});

/** The store on the test file's own Redis (call at the top level of the file; ready in its tests). */
export function memoryStoreFixture(name: string) {
  const db = privateRedis(name);
  const fx = {
    redis: undefined as unknown as Redis,
    store: undefined as unknown as MemoryStore,
    create: async (s: Space, over: Record<string, unknown> = {}) => {
      return fx.store.createMemory(s, crypto.randomUUID(), fields(over), 64);
    },
    /** What the tags service's attach script does: both link ends, scored by the memory's created_at. */
    async attach(s: Space, memory: MemoryRow, tagId: string) {
      const ks = keyspace(s);
      await fx.redis
        .multi()
        .sadd(ks.memoryTags(memory.memory.id), tagId)
        .zadd(ks.tagMembers(tagId), Date.parse(memory.memory.created_at), memory.memory.id)
        .exec();
    },
  };
  beforeAll(async () => {
    fx.redis = await db.connect();
    fx.store = createMemoryStore(fx.redis);
  });
  return fx;
}
