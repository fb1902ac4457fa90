import type { RedisClient } from "../../kit/redis-functions";
import type { Space } from "../../kit/space";
import { EXPIRY_REGISTRY, keyspace } from "../../memory-data/keyspace";
import { settingsKey } from "../../tenant-settings/settings";
import { memoriesLibrary, type MemoryFunction } from "../lua/library";

/**
 * The functions answer one JSON string (lua/helpers.lua says why), and cjson writes an empty Lua
 * table as `{}`. The rule that makes that unambiguous: a function answers only lists (a hash comes
 * as its flat field/value list, metadata as a JSON string), so every object in an answer is an empty
 * list. An answer holding any other object breaks the rule and fails here, loudly (store.test.ts).
 */
export function emptyTablesAsLists(x: unknown): unknown {
  if (!Array.isArray(x)) {
    if (x === null || typeof x !== "object") return x;
    if (Object.keys(x).length > 0) throw new Error("a memories function answered an object: answer lists only");
    return [];
  }
  for (let i = 0; i < x.length; i++) if (x[i] !== null && typeof x[i] === "object") x[i] = emptyTablesAsLists(x[i]);
  return x;
}

/** What every function declares first: the tenant's index keys, in helpers.lua's order. */
export const indexKeys = (space: Space) => {
  const ks = keyspace(space);
  return [
    ks.byCreated,
    ks.byUpdated,
    ks.roots,
    ks.externalIds,
    ks.entityNames,
    ks.entitiesByCreated,
    ks.byOccurred,
    ks.expiring,
    settingsKey(space),
    ks.storage,
  ];
};

/** Spaces whose index keys a replica holds at once; past it they are named again (a few MiB for 10,000). */
const MAX_HELD_SPACES = 10_000;
const held = new Map<string, readonly string[]>();

/**
 * A space's index keys, named once and frozen: naming ten keys on every call showed in the service's profile of
 * a read, and the same frozen list each time lets the library caller check its slot once (kit/redis-functions.ts).
 */
export function heldIndexKeys(space: Space): readonly string[] {
  const id = `${space.env}:${space.tenant}`;
  let keys = held.get(id);
  if (!keys) {
    if (held.size >= MAX_HELD_SPACES) held.clear();
    keys = Object.freeze(indexKeys(space));
    held.set(id, keys);
  }
  return keys;
}

const REGISTRY_KEYS = Object.freeze([EXPIRY_REGISTRY.due, EXPIRY_REGISTRY.gen]);

/**
 * How every feature's store calls the memories library: `space` for one tenant+environment (its index keys,
 * then `extraKeys`: list.lua's filter sets, export's tag index...), `registry` for the expiry registry's
 * functions (keys of no tenant). Each answer is parsed from its JSON string.
 */
export function memoriesCaller(redis: RedisClient) {
  const call = memoriesLibrary.on(redis);
  return {
    async space<T>(fn: MemoryFunction, space: Space, args: (string | number)[], extraKeys: string[] = []) {
      const keys = extraKeys.length > 0 ? [...heldIndexKeys(space), ...extraKeys] : heldIndexKeys(space);
      return emptyTablesAsLists(JSON.parse((await call(fn, keys, args)) as string)) as T;
    },
    async registry<T>(fn: MemoryFunction, args: (string | number)[]) {
      return emptyTablesAsLists(JSON.parse((await call(fn, REGISTRY_KEYS, args)) as string)) as T;
    },
  };
}

export type MemoriesCaller = ReturnType<typeof memoriesCaller>;
