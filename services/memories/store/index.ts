import type { RedisClient } from "../../kit/redis-functions";
import { memoryStore } from "../memory/store";
import { entityStore } from "../entity/store";
import { expiryStore } from "../expiry/store";
import { memoriesCaller } from "./call";

export type { MemoryFields, MemoryRow, Removal } from "./record";
export type { Created, NewLife, MemoryDraft } from "../memory/create-args";
export type { MemoryFilter, MemoryPatch } from "../memory/store";
export type { EntityFields } from "../entity/store";
export type { Purge } from "../expiry/store";
export { emptyTablesAsLists, indexKeys } from "./call";

/**
 * The memories service's Redis calls for memories, entities and expiry, one object for the handlers: each
 * feature writes its own part (memory/store.ts, entity/store.ts, expiry/store.ts) through the one function
 * library (lua/library.ts); reads are one function too, so a memory comes back with its tags and entity ids in
 * one round trip. Export and import (portability/store.ts) and the storage counters (storage/store.ts) have
 * stores of their own.
 */
export function createMemoryStore(redis: RedisClient) {
  const call = memoriesCaller(redis);
  return { ...memoryStore(call), ...entityStore(call), ...expiryStore(call, redis) };
}

export type MemoryStore = ReturnType<typeof createMemoryStore>;
