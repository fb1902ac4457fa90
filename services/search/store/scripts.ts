import type { RedisClient } from "../../kit/redis-functions";
import { type Call, defineLibrary } from "../../kit/redis-functions";
import { luaFieldTables } from "./fields";

/**
 * The search index's Redis functions: ../lua/<name>.lua each, with the stored field names (fields.ts)
 * and ../lua/common.lua defined once.
 */
const searchLibrary = await defineLibrary({
  name: "search",
  dir: new URL("../lua/", import.meta.url),
  shared: [{ lua: luaFieldTables() }, "common.lua"],
  functions: {
    upsert: "write",
    delete: "write",
    reweight: "write",
    query: "scratch",
    "lock-refresh": "write",
    "lock-release": "write",
  },
});

export type SearchFunction = Parameters<ReturnType<typeof searchLibrary.on>>[0];
export type Functions = Call<SearchFunction>;

export const searchFunctions = (redis: RedisClient): Functions => searchLibrary.on(redis);
