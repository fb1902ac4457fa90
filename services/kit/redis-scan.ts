import type Redis from "ioredis";
import type { Cluster } from "ioredis";
import type { RedisClient } from "./redis-client";

/**
 * The nodes that hold the data: every primary of a cluster, or the one Redis. A cluster client learns
 * its nodes when it connects, so a lazy one connects first.
 */
export async function primariesOf(redis: RedisClient): Promise<Redis[]> {
  if (!redis.isCluster) return [redis as Redis];
  if (redis.status === "wait") await redis.connect();
  return (redis as Cluster).nodes("master");
}

/**
 * Keys matching `pattern`, in pages as SCAN gives them. A cluster's SCAN answers for one node only,
 * so every primary is scanned in turn (a key lives on exactly one of them).
 */
export async function* scanKeys(redis: RedisClient, pattern: string, count = 500): AsyncGenerator<string[]> {
  for (const node of await primariesOf(redis)) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", count);
      cursor = next;
      if (keys.length > 0) yield keys;
    } while (cursor !== "0");
  }
}

/**
 * One page of a walk over every primary that can stop between pages: `cursor` is "0" to start, and the answer's
 * cursor is "0" when the walk is over. A cluster walk's cursor names the primary it is on (`<index>:<cursor>`).
 */
export async function scanPage(
  redis: RedisClient,
  cursor: string,
  pattern: string,
  count: number,
): Promise<{ cursor: string; keys: string[] }> {
  const nodes = await primariesOf(redis);
  const [at, inner] = cursor.includes(":") ? cursor.split(":") : ["0", cursor];
  const index = Number(at);
  const node = nodes[index];
  if (!node) return { cursor: "0", keys: [] };
  const [next, keys] = await node.scan(inner!, "MATCH", pattern, "COUNT", count);
  if (next !== "0") return { cursor: `${index}:${next}`, keys };
  return { cursor: index + 1 < nodes.length ? `${index + 1}:0` : "0", keys };
}

/**
 * Deletes keys matching the patterns (UNLINK: freed in the background), at most about `budget` per call, every
 * primary of a cluster walked. `done` is false when the budget ran out first: call again, the walk starts over
 * and finds only what is left. Made for the keys of one space (one hash tag): each page's keys share a slot.
 */
export async function unlinkMatching(
  redis: RedisClient,
  patterns: string[],
  budget: number,
): Promise<{ deleted: number; done: boolean }> {
  let deleted = 0;
  for (const pattern of patterns) {
    for (const node of await primariesOf(redis)) {
      let cursor = "0";
      do {
        const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
        cursor = next;
        if (keys.length > 0) deleted += await node.unlink(...keys);
        if (deleted >= budget) return { deleted, done: false };
      } while (cursor !== "0");
    }
  }
  return { deleted, done: true };
}

/** A pattern that matches `text` literally in SCAN's glob syntax. */
export const globLiteral = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&");
