import type Redis from "ioredis";
import { defineScripts } from "./scripts";
import { createWriteStore } from "./writes";
import { createReadStore, createPool } from "./reads";
import { createAdminStore } from "./admin";

/**
 * The store of the search service: the only code that touches Redis (key names in ../keys.ts, Lua in
 * ./lua). Split by idea: writes.ts (index one memory / remove it, atomically per memory),
 * reads.ts (candidates of a query), admin.ts (meta, rebuild lock, walking an index).
 */
export function createSearchStore(redis: Redis, vsimConnections: Redis[] = [redis]) {
  const scripts = defineScripts(redis);
  return {
    writes: createWriteStore(redis, scripts),
    reads: createReadStore(redis, scripts, createPool(vsimConnections)),
    admin: createAdminStore(redis),
  };
}

export type SearchStore = ReturnType<typeof createSearchStore>;
export type { DocState, UpsertItem, UpsertStatus, DeleteStatus } from "./writes";
export type { Hit, QuantizedVector, ReadStore } from "./reads";
export type { IndexMeta } from "./admin";
