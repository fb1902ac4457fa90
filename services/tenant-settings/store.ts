import type { RedisClient } from "../kit/redis-functions";
import { tenantLibrary } from "./lua/library";
import { hashOfPairs } from "../kit/redis-replies";
import type { Space } from "../kit/space";
import { settingsKey } from "./settings";

/**
 * Origins some tenant allows or some token names (score: until when, ms; +inf: no end), for preflights.
 * One key for every tenant: a preflight names no tenant.
 */
const KNOWN_ORIGINS = "cors:known-origins";

/** The only code that touches the settings hash (the memories library reads it too, through settings.lua). */
export function createTenantSettingsStore(redis: RedisClient) {
  const call = tenantLibrary.on(redis);
  return {
    async get(space: Space): Promise<Record<string, string>> {
      return redis.hgetall(settingsKey(space));
    },
    /** Erasing the tenant environment (contract/erase.ts). */
    async erase(space: Space): Promise<number> {
      return redis.unlink(settingsKey(space));
    },
    async update(space: Space, set: Record<string, string>, remove: string[]): Promise<Record<string, string>> {
      const flat = (await call(
        "update",
        [settingsKey(space)],
        [JSON.stringify(set), JSON.stringify(remove)],
      )) as string[];
      return hashOfPairs(flat);
    },
    /** Remembers origins until `untilMs` (null: no end), never shortening what was remembered. */
    async registerOrigins(origins: string[], untilMs: number | null): Promise<void> {
      if (origins.length === 0) return;
      const score = untilMs === null ? "+inf" : String(untilMs);
      await redis.zadd(KNOWN_ORIGINS, "GT", ...origins.flatMap((o) => [score, o]));
      if (Math.random() < 0.01) await redis.zremrangebyscore(KNOWN_ORIGINS, "-inf", Date.now()); // now and then
    },
    async knownOrigin(origin: string): Promise<boolean> {
      const until = await redis.zscore(KNOWN_ORIGINS, origin);
      return until === "inf" || (until !== null && Number(until) > Date.now()); // Redis writes +inf as "inf"
    },
  };
}

export type TenantSettingsStore = ReturnType<typeof createTenantSettingsStore>;
