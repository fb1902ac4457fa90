import type { RedisClient } from "../kit/redis-functions";
import { defineLibrary } from "../kit/redis-functions";
import { hashOfPairs } from "../kit/redis-replies";
import type { Space } from "../kit/space";
import { settingsKey } from "./settings";

/** The one function of this module: a change of settings, stamped with Redis TIME in the same step. */
const tenantLibrary = await defineLibrary({
  name: "tenant",
  dir: new URL("./lua/", import.meta.url),
  functions: { update: "write" },
});

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
  };
}

export type TenantSettingsStore = ReturnType<typeof createTenantSettingsStore>;
