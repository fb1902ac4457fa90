import type { RedisClient } from "../../kit/redis-functions";
import { scanPage } from "../../kit/redis-scan";
import { hashTag, type Space } from "../../kit/space";
import type { MemoriesCaller } from "../store/call";
import { parseRemoval, type Removal, type RemovalReply } from "../store/record";

/** A purge of expired memories (purge.lua), and when the space next needs one. */
export type Purge = Removal & { next: number | null; more: boolean };

const SPACE_OF_EXPIRING = /^mi:\{(.+):(live|test)\}:expiring$/;
const SPACE_OF_HASH_TAG = /^\{(.+):(live|test)\}$/;

/**
 * The expiry's Redis calls: the purge of a space's expired memories, and the registry of spaces the sweeper
 * looks at (due-*.lua), whose keys belong to no tenant.
 */
export function expiryStore(call: MemoriesCaller, redis: RedisClient) {
  return {
    /** Up to `count` memories of the space past their expiry go (purge.lua). */
    async purgeExpired(space: Space, count: number): Promise<Purge> {
      const [deleted, updates, next, more] = await call.space<[...RemovalReply, string, number]>("purge", space, [
        count,
      ]);
      return { ...parseRemoval([deleted, updates]), next: next === "" ? null : Number(next), more: more === 1 };
    },

    /** The space has a memory expiring at `atMs`: the sweeper looks at it no later (due-register.lua). */
    async registerExpiry(space: Space, atMs: number): Promise<void> {
      await call.registry("due-register", [hashTag(space), atMs]);
    },

    /** Spaces due for a purge, claimed for `leaseMs` (due-claim.lua), each with the registry's count. */
    async claimDue(count: number, leaseMs: number): Promise<{ space: Space; gen: string }[]> {
      const flat = await call.registry<string[]>("due-claim", [count, leaseMs]);
      const out: { space: Space; gen: string }[] = [];
      for (let i = 0; i < flat.length; i += 2) {
        const m = SPACE_OF_HASH_TAG.exec(flat[i]!);
        if (m) out.push({ space: { tenant: m[1]!, env: m[2] as Space["env"] }, gen: flat[i + 1]! });
      }
      return out;
    },

    /** A claimed space's next look at `nextMs` (null: none needed) (due-release.lua). */
    async releaseDue(space: Space, gen: string, nextMs: number | null): Promise<void> {
      await call.registry("due-release", [hashTag(space), gen, nextMs === null ? "" : nextMs]);
    },

    /**
     * One step of a walk over the spaces that hold memories that expire (SCAN, `count` keys at a time): each
     * with its earliest expires_at. `cursor` "0" starts; the answer's "0" ends.
     */
    async expiringSpaces(cursor: string, count: number): Promise<{ cursor: string; found: [Space, number][] }> {
      const { cursor: next, keys } = await scanPage(redis, cursor, "mi:\\{*\\}:expiring", count);
      const found: [Space, number][] = [];
      for (const key of keys) {
        const m = SPACE_OF_EXPIRING.exec(key);
        const first = m ? await redis.zrange(key, "0", "0", "WITHSCORES") : [];
        if (m && first.length === 2) found.push([{ tenant: m[1]!, env: m[2] as Space["env"] }, Number(first[1])]);
      }
      return { cursor: next, found };
    },
  };
}
