import type { ChainableCommander } from "ioredis";
import type { MemorySnapshot } from "../contract/events";
import type { RedisClient } from "../kit/redis-client";
import { scanKeys } from "../kit/redis-scan";
import { execBatch } from "../kit/slot-moves";
import { hashTag, type Space } from "../kit/space";
import { keyspace } from "./keyspace";
import { snapshotOfHash } from "./memory-hash";

/** A memory record's key, not one of its link sets (`m:{t:e}:<id>:tags` …): ids hold no ':'. */
const MEMORY_KEY = /^m:\{[^}]*\}:[^:]+$/;

/** Glob-escapes a key prefix for SCAN MATCH. */
const globEscape = (s: string) => s.replace(/[*?[\]\\{}]/g, "\\$&");

/**
 * What another module reads of memory-data's keys (the memory hash, the link sets) from TypeScript. Only
 * memory-data names them in a Redis command (test/codebase/key-ownership.test.ts), so a change of their layout
 * is made here, whichever service reads them.
 */
export function createMemoryDataReads(redis: RedisClient) {
  return {
    /** The tag ids of each memory (an empty list for an unknown one). */
    async tagIdsOf(space: Space, memoryIds: string[]): Promise<string[][]> {
      if (memoryIds.length === 0) return [];
      const ks = keyspace(space);
      return (await execBatch(() => {
        const p = redis.pipeline();
        for (const id of memoryIds) p.smembers(ks.memoryTags(id));
        return p;
      })) as string[][];
    },

    /** How many memories carry each tag: its memory_count. */
    async tagCounts(space: Space, tagIds: string[]): Promise<number[]> {
      if (tagIds.length === 0) return [];
      const ks = keyspace(space);
      return (await execBatch(() => {
        const p = redis.pipeline();
        for (const id of tagIds) p.zcard(ks.tagMembers(id));
        return p;
      })) as number[];
    },

    /** Each memory's snapshot, read with its link sets in one transaction; missing ones are left out. */
    async snapshots(space: Space, memoryIds: string[]): Promise<MemorySnapshot[]> {
      if (memoryIds.length === 0) return [];
      const ks = keyspace(space);
      const res = await execBatch(() => {
        const m = redis.multi();
        for (const id of memoryIds)
          m.hgetall(ks.memory(id)).smembers(ks.memoryTags(id)).smembers(ks.memoryEntities(id));
        return m;
      });
      const out: MemorySnapshot[] = [];
      memoryIds.forEach((id, i) => {
        const hash = res[3 * i] as Record<string, string>;
        if (Object.keys(hash).length > 0)
          out.push(snapshotOfHash(id, hash, res[3 * i + 1] as string[], res[3 * i + 2] as string[]));
      });
      return out;
    },

    /**
     * The memory records of `space` and the bytes of their content + metadata, counted from the hashes themselves
     * (SCAN over the space's keys, every primary).
     */
    async recordSizes(space: Space): Promise<{ memories: number; bytes: number }> {
      const out = { memories: 0, bytes: 0 };
      for await (const keys of scanKeys(redis, `m:${globEscape(hashTag(space))}:*`)) {
        const records = keys.filter((k) => MEMORY_KEY.test(k));
        if (records.length === 0) continue;
        // One slot (the space's hash tag): one pipeline, on a cluster too.
        const p = redis.pipeline();
        for (const k of records) p.hstrlen(k, "content").hstrlen(k, "metadata");
        for (const [err, n] of (await p.exec()) ?? []) {
          if (err) throw err;
          out.bytes += Number(n);
        }
        out.memories += records.length;
      }
      return out;
    },
  };
}

/**
 * Queues the read of a tag's memory_count (one reply) on a transaction of the caller's, so it is read in the
 * same step as the caller's own keys (a tag's hash with its count).
 */
export function queueTagCount(m: ChainableCommander, space: Space, tagId: string): ChainableCommander {
  return m.zcard(keyspace(space).tagMembers(tagId));
}
