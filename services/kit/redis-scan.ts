import type Redis from "ioredis";
import type { Cluster } from "ioredis";
import type { RedisClient } from "./redis-functions";

/** The nodes that hold the data: every primary of a cluster, or the one Redis. */
export const primariesOf = (redis: RedisClient): Redis[] =>
  redis.isCluster ? (redis as Cluster).nodes("master") : [redis as Redis];

/**
 * Keys matching `pattern`, in pages as SCAN gives them. A cluster's SCAN answers for one node only,
 * so every primary is scanned in turn (a key lives on exactly one of them).
 */
export async function* scanKeys(redis: RedisClient, pattern: string, count = 500): AsyncGenerator<string[]> {
  for (const node of primariesOf(redis)) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", count);
      cursor = next;
      if (keys.length > 0) yield keys;
    } while (cursor !== "0");
  }
}
