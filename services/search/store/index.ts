import type { RedisClient } from "../../kit/redis-functions";
import { searchLibrary } from "../lua/library";
import { createWriteStore } from "./writes";
import { createReadStore, createPool } from "./reads";
import { createAdminStore } from "./admin";

/**
 * The store of the search service: the only code that touches Redis (key names in keyspace.ts, the
 * stored field names in fields.ts, Redis functions in ../lua, declared in ../lua/library.ts). Split by idea:
 * writes.ts (index one memory / remove it, atomically per memory), reads.ts (candidates of a query), admin.ts
 * (meta, rebuild lock, walking an index).
 */
export function createSearchStore(redis: RedisClient, vsimConnections: RedisClient[] = [redis]) {
  const functions = searchLibrary.on(redis);
  return {
    writes: createWriteStore(redis, functions),
    reads: createReadStore(redis, functions, createPool(vsimConnections)),
    admin: createAdminStore(redis, functions),
  };
}

export type SearchStore = ReturnType<typeof createSearchStore>;
export type { DocState, IndexDoc, UpsertItem, UpsertStatus, DeleteStatus } from "./writes";
export type { Hit, QuantizedVector, ReadStore, ThreadPlace } from "./reads";
export type { IndexMeta } from "./admin";
export { ATTRS, FILTER_KINDS, threadOrderMember, VALID_FOREVER, type FilterKind } from "./fields";
