import type { RedisClient } from "../../kit/redis-functions";
import { scanKeys } from "../../kit/redis-scan";
import type { Space } from "../../kit/space";
import { keyspace } from "../../memory-data/keyspace";
import { createMemoryDataReads } from "../../memory-data/reads";
import { settingsKey } from "../../tenant-settings/settings";

/** What a tenant environment stores: memories, and bytes of their content + metadata (lua/quota.lua). */
export interface StorageCount {
  memories: number;
  bytes: number;
}

/** A space's counters with the space. */
export type SpaceStorage = StorageCount & { space: Space };

const SPACE_OF_STORAGE = /^mi:\{(.+):(live|test)\}:storage$/;

const countOf = (fields: (string | null)[]): StorageCount => ({
  memories: Number(fields[0] ?? 0),
  bytes: Number(fields[1] ?? 0),
});

/**
 * The memories service's reads of what tenants store: the counters the memories functions keep (quota.lua), a
 * recount from the memory records themselves (what the counters must equal), and the largest spaces.
 */
export function createStorageStore(redis: RedisClient) {
  return {
    /** The counters of `space`, and its settings hash (where the root key's quota overrides are). */
    async usage(space: Space): Promise<{ count: StorageCount; settings: Record<string, string> }> {
      const [count, settings] = await Promise.all([
        redis.hmget(keyspace(space).storage, "memories", "bytes"),
        redis.hgetall(settingsKey(space)),
      ]);
      return { count: countOf(count), settings };
    },

    /**
     * Counts the memory records of `space` from the store (SCAN over its keys, every primary): what the
     * counters hold when nothing writes meanwhile. For tests and the admin tool (cli/storage.ts).
     */
    async recount(space: Space): Promise<StorageCount> {
      return createMemoryDataReads(redis).recordSizes(space);
    },

    /** Sets the counters of `space` (the admin tool, after a recount of a quiet space); none kept for an empty one. */
    async setCount(space: Space, count: StorageCount): Promise<void> {
      const key = keyspace(space).storage;
      if (count.memories === 0) await redis.del(key);
      else await redis.hset(key, "memories", count.memories, "bytes", count.bytes);
    },

    /** The `limit` spaces that store the most bytes (ties: more memories first), from a SCAN of the counters. */
    async largest(limit: number): Promise<SpaceStorage[]> {
      const all: SpaceStorage[] = [];
      for await (const keys of scanKeys(redis, "mi:*:storage")) {
        const counts = await Promise.all(keys.map((k) => redis.hmget(k, "memories", "bytes")));
        keys.forEach((key, i) => {
          const m = SPACE_OF_STORAGE.exec(key);
          if (m) all.push({ space: { tenant: m[1]!, env: m[2] as Space["env"] }, ...countOf(counts[i]!) });
        });
      }
      all.sort((a, b) => b.bytes - a.bytes || b.memories - a.memories);
      return all.slice(0, limit);
    },
  };
}

export type StorageStore = ReturnType<typeof createStorageStore>;
