import { refusalOf, type RedisClient } from "../kit/redis-functions";
import type { ServiceError } from "../contract/errors";
import { scanPage } from "../kit/redis-scan";
import { EXPIRY_REGISTRY, foldName, keyspace } from "../memory-data/keyspace";
import type { KeyClaim } from "../kit/wire";
import { slot, type Space } from "../kit/space";
import { settingsKey } from "../tenant-settings/settings";
import { SUPERSESSION_WALK_MAX, type ListMemoriesInput } from "../contract/memories";
import type { Entity } from "../contract/entities";
import { memoriesLibrary, type MemoryFunction } from "./library";
import { NO_LIMITS, type StorageLimits } from "./quota";
import { createArgs, created, msOf, type Created, type NewLife, type NewMemory } from "./new-memory";
import {
  parseEntity,
  parseMemories,
  parseMemory,
  parseRemoval,
  type CreatedReply,
  type MemoryFields,
  type MemoryRow,
  type ReadEntityReply,
  type ReadMemoryReply,
  type Removal,
  type RemovalReply,
} from "./record";

export type { MemoryFields } from "./record";
export type { Created, NewLife, NewMemory } from "./new-memory";

export interface EntityFields {
  name: string;
  type: string;
  description: string | null;
  metadata: Record<string, unknown>;
  /** An import's creation time (ms), kept unless still to come; absent: now. */
  created_at?: number;
}

export type MemoryFilter = Omit<ListMemoriesInput, "limit" | "offset" | "sort" | "order"> & {
  limit: number;
  offset: number;
  sort: "created_at" | "updated_at" | "occurred_at";
  order: "asc" | "desc";
};

/** The fields of a patch: a memory's own, and the times of its life (ISO 8601; expires_at null = never). */
export type MemoryPatch = Partial<MemoryFields> & { occurred_at?: string; expires_at?: string | null };

/** A purge of expired memories (purge.lua), and when the space next needs one. */
export type Purge = Removal & { next: number | null; more: boolean };

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
const NAME_KEY = (type: string, folded: string) => `${type}:${folded}`;

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

const REGISTRY_KEYS = [EXPIRY_REGISTRY.due, EXPIRY_REGISTRY.gen];
const SPACE_OF_EXPIRING = /^mi:\{(.+):(live|test)\}:expiring$/;
const SPACE_OF_SLOT = /^\{(.+):(live|test)\}$/;

/**
 * The only code of the memories service that touches Redis. Every write is one Redis function
 * (lua/*.lua, library.ts) that checks first, then updates the record and every index and link
 * together; reads are one function too, so a memory comes back with its tags and entity ids in one
 * round trip. A refusal (unknown memory, taken external_id...) rejects with the contract's error.
 */
export function createMemoryStore(redis: RedisClient) {
  const call = memoriesLibrary.on(redis);
  /** One function call for one tenant+environment; `sets` are list.lua's filter sets. */
  const run = async <T>(fn: MemoryFunction, space: Space, args: (string | number)[], sets: string[] = []) => {
    const keys = sets.length > 0 ? [...indexKeys(space), ...sets] : indexKeys(space);
    return emptyTablesAsLists(JSON.parse((await call(fn, keys, args)) as string)) as T;
  };
  /** A call of the expiry registry's functions (keys of no tenant). */
  const registry = async <T>(fn: MemoryFunction, args: (string | number)[]) =>
    emptyTablesAsLists(JSON.parse((await call(fn, REGISTRY_KEYS, args)) as string)) as T;

  return {
    /**
     * The new memory; `superseded`: the memory it replaced (now marked so), if any. `limits`: the plan's,
     * unless the tenant's settings override them (lua/quota.lua); past them the create is QUOTA_EXCEEDED.
     * `keyClaim`: the request's Idempotency-Key, claimed in the same step (IDEMPOTENCY_IN_FLIGHT if held).
     */
    async createMemory(
      space: Space,
      id: string,
      f: MemoryFields,
      maxDepth: number,
      life: NewLife = {},
      limits: StorageLimits = NO_LIMITS,
      keyClaim?: KeyClaim,
    ): Promise<Created> {
      const args = [
        maxDepth,
        SUPERSESSION_WALK_MAX,
        limits.memories,
        limits.bytes,
        ...createArgs({ id, fields: f, life }),
      ];
      if (keyClaim) args.push(keyClaim.value, keyClaim.leaseMs);
      const reply = await run<CreatedReply>("create", space, args, keyClaim ? [keyClaim.key] : []);
      return created({ id, fields: f, life }, reply);
    },

    /**
     * Memories created in order, in one step (create-batch.lua), each as createMemory creates one: aligned with
     * `items`, each the new memory or the refusal of that item alone. An item's parent may be an earlier item.
     */
    async createMemories(
      space: Space,
      items: NewMemory[],
      maxDepth: number,
      limits: StorageLimits = NO_LIMITS,
    ): Promise<(Created | ServiceError)[]> {
      if (items.length === 0) return [];
      const args: (string | number)[] = [maxDepth, SUPERSESSION_WALK_MAX, limits.memories, limits.bytes];
      for (const item of items) args.push(...createArgs(item));
      const replies = await run<([1, CreatedReply] | [0, string])[]>("create-batch", space, args);
      return replies.map((r, i) => {
        if (r[0] === 1) return created(items[i]!, r[1]);
        const refusal = refusalOf(new Error(r[1]));
        if (!refusal) throw new Error(`create-batch: not a refusal: ${r[1]}`);
        return refusal;
      });
    },

    async getMemories(space: Space, ids: string[]): Promise<(MemoryRow | null)[]> {
      if (ids.length === 0) return [];
      return (await run<ReadMemoryReply[]>("get", space, ids)).map(parseMemory);
    },

    /**
     * `patch` holds only the fields to set; null parent/external_id/expires_at clears them. Also answers the
     * memory it superseded when its valid_to followed a new occurred_at. Content or metadata that grow past
     * the bytes quota (`limits`, as on create) are QUOTA_EXCEEDED.
     */
    async updateMemory(
      space: Space,
      id: string,
      patch: MemoryPatch,
      maxDepth: number,
      limits: StorageLimits = NO_LIMITS,
    ): Promise<{ row: MemoryRow; changed: string[]; superseded: MemoryRow | null }> {
      const fields: Record<string, string | null> = {};
      for (const [field, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        if (field === "metadata") fields[field] = JSON.stringify(value);
        else if (field === "occurred_at" || field === "expires_at")
          fields[field] = value === null ? null : msOf(value as string);
        else fields[field] = value as string | null;
      }
      const args = [id, maxDepth, JSON.stringify(fields), limits.memories, limits.bytes];
      const r = await run<[ReadMemoryReply, string[], ReadMemoryReply]>("update", space, args);
      return { row: parseMemory(r[0])!, changed: r[1], superseded: parseMemory(r[2]) };
    },

    async deleteMemory(space: Space, id: string, cascade: boolean): Promise<Removal> {
      return parseRemoval(await run<RemovalReply>("delete", space, [id, cascade ? "1" : "0"]));
    },

    /** Up to `count` memories of the space past their expiry go (purge.lua). */
    async purgeExpired(space: Space, count: number): Promise<Purge> {
      const [deleted, updates, next, more] = await run<[...RemovalReply, string, number]>("purge", space, [count]);
      return { ...parseRemoval([deleted, updates]), next: next === "" ? null : Number(next), more: more === 1 };
    },

    /** The siblings around a memory in its thread (siblings.lua). */
    async siblings(space: Space, id: string, count: number): Promise<{ before: MemoryRow[]; after: MemoryRow[] }> {
      const [before, after] = await run<[ReadMemoryReply[], ReadMemoryReply[]]>("siblings", space, [id, count]);
      return { before: parseMemories(before), after: parseMemories(after) };
    },

    /** The space has a memory expiring at `atMs`: the sweeper looks at it no later (due-register.lua). */
    async registerExpiry(space: Space, atMs: number): Promise<void> {
      await registry("due-register", [slot(space), atMs]);
    },

    /** Spaces due for a purge, claimed for `leaseMs` (due-claim.lua), each with the registry's count. */
    async claimDue(count: number, leaseMs: number): Promise<{ space: Space; gen: string }[]> {
      const flat = await registry<string[]>("due-claim", [count, leaseMs]);
      const out: { space: Space; gen: string }[] = [];
      for (let i = 0; i < flat.length; i += 2) {
        const m = SPACE_OF_SLOT.exec(flat[i]!);
        if (m) out.push({ space: { tenant: m[1]!, env: m[2] as Space["env"] }, gen: flat[i + 1]! });
      }
      return out;
    },

    /** A claimed space's next look at `nextMs` (null: none needed) (due-release.lua). */
    async releaseDue(space: Space, gen: string, nextMs: number | null): Promise<void> {
      await registry("due-release", [slot(space), gen, nextMs === null ? "" : nextMs]);
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

    /**
     * The latest memory of the chain a create naming `id` in `supersedes` would replace (chain-head.lua); null
     * when `id` is unknown or expired. A chain longer than the walk allows is its create's refusal.
     */
    async supersessionHead(space: Space, id: string): Promise<string | null> {
      const r = await run<string | false>("chain-head", space, [id, SUPERSESSION_WALK_MAX]);
      return r === false ? null : r;
    },

    /** The memories a delete of `id` would change but not delete (removal-touches.lua); null when unknown. */
    async removalTouches(space: Space, id: string, cascade: boolean): Promise<string[] | null> {
      const r = await run<string[] | false>("removal-touches", space, [id, cascade ? "1" : "0"]);
      return r === false ? null : r;
    },

    async ancestors(space: Space, id: string, maxDepth: number): Promise<string[] | null> {
      const r = await run<string[] | false>("ancestors", space, [id, maxDepth]);
      return r === false ? null : r;
    },

    async listMemories(space: Space, q: MemoryFilter): Promise<{ total: number; rows: MemoryRow[] }> {
      const ks = keyspace(space);
      const sets = new Set<string>();
      if (q.parent_memory_id) sets.add(ks.memoryKids(q.parent_memory_id));
      if (q.root === true) sets.add(ks.roots);
      if (q.tier) sets.add(ks.byField("tier", q.tier));
      if (q.content_type) sets.add(ks.byField("content_type", q.content_type));
      if (q.memory_nature) sets.add(ks.byField("memory_nature", q.memory_nature));
      for (const tagId of q.tag_id ?? []) sets.add(ks.tagMembers(tagId));
      if (q.entity_id) sets.add(ks.entityMembers(q.entity_id));
      const ms = (iso: string | undefined) => (iso === undefined ? "" : msOf(iso));
      const args = [
        q.sort === "updated_at" ? "updated" : q.sort === "occurred_at" ? "occurred" : "created",
        q.order,
        q.offset,
        q.limit,
        ms(q.created_after),
        ms(q.created_before),
        ms(q.occurred_after),
        ms(q.occurred_before),
        q.root === false ? "1" : "0",
        q.external_id ?? "",
        q.parent_memory_id ? "1" : "0",
      ];
      const [total, raws] = await run<[number, ReadMemoryReply[]]>("list", space, args, [...sets]);
      return { total: Number(total), rows: parseMemories(raws) };
    },

    async createEntity(
      space: Space,
      id: string,
      f: EntityFields,
      memoryIds: string[],
    ): Promise<{ entity: Entity; linked: MemoryRow[] }> {
      const nameKey = NAME_KEY(f.type, foldName(f.name));
      const optional = JSON.stringify({ description: f.description, created_at: f.created_at ?? null });
      const args = [id, f.name, f.type, nameKey, JSON.stringify(f.metadata), optional, ...memoryIds];
      const r = await run<[ReadEntityReply, ReadMemoryReply[]]>("entity-create", space, args);
      return { entity: parseEntity(r[0])!, linked: parseMemories(r[1]) };
    },

    async getEntity(space: Space, id: string): Promise<Entity | null> {
      return parseEntity((await run<ReadEntityReply[]>("entity-get", space, [id]))[0] ?? null);
    },

    /** Aligned with `ids`; null where unknown. */
    async getEntities(space: Space, ids: string[]): Promise<(Entity | null)[]> {
      if (ids.length === 0) return [];
      return (await run<ReadEntityReply[]>("entity-get", space, ids)).map((raw) => parseEntity(raw ?? null));
    },

    async updateEntity(space: Space, id: string, patch: Partial<EntityFields>): Promise<Entity> {
      const fields: Record<string, string | null> = {};
      if (patch.name !== undefined) Object.assign(fields, { name: patch.name, lname: foldName(patch.name) });
      if (patch.type !== undefined) fields.type = patch.type;
      if (patch.description !== undefined) fields.description = patch.description;
      if (patch.metadata !== undefined) fields.metadata = JSON.stringify(patch.metadata);
      return parseEntity(await run<ReadEntityReply>("entity-update", space, [id, JSON.stringify(fields)]))!;
    },

    /** Returns the memories that were linked (now unlinked, version bumped). */
    async deleteEntity(space: Space, id: string): Promise<MemoryRow[]> {
      return parseMemories(await run<ReadMemoryReply[]>("entity-delete", space, [id]));
    },

    async linkEntity(
      space: Space,
      id: string,
      memoryIds: string[],
    ): Promise<{ added: number; skipped: number; count: number; linked: MemoryRow[] }> {
      const r = await run<[number, number, number, ReadMemoryReply[]]>("entity-link", space, [id, ...memoryIds]);
      return { added: r[0], skipped: r[1], count: r[2], linked: parseMemories(r[3]) };
    },

    async unlinkEntity(
      space: Space,
      id: string,
      memoryId: string,
    ): Promise<{ removed: boolean; row: MemoryRow | null }> {
      const r = await run<[number, ReadMemoryReply?]>("entity-unlink", space, [id, memoryId]);
      return { removed: r[0] === 1, row: parseMemory(r[1] ?? null) };
    },

    async listEntities(
      space: Space,
      q: { offset: number; limit: number; type?: string; search?: string },
    ): Promise<{ total: number; items: Entity[] }> {
      const args = [q.offset, q.limit, q.type ?? "", q.search ? foldName(q.search) : ""];
      const [total, raws] = await run<[number, ReadEntityReply[]]>("entity-list", space, args);
      return { total: Number(total), items: raws.map(parseEntity).filter((e): e is Entity => e !== null) };
    },
  };
}

export type MemoryStore = ReturnType<typeof createMemoryStore>;
