import type { RedisClient } from "../kit/redis-functions";
import { foldName, keyspace } from "../memory-data/keyspace";
import type { Space } from "../kit/space";
import type { ListMemoriesInput } from "../contract/memories";
import type { Entity } from "../contract/entities";
import { memoriesLibrary, type MemoryFunction } from "./library";
import {
  newMemoryRow,
  parseEntity,
  parseMemories,
  parseMemory,
  type MemoryFields,
  type MemoryRow,
  type ReadEntityReply,
  type ReadMemoryReply,
} from "./record";

export type { MemoryFields } from "./record";

export interface EntityFields {
  name: string;
  type: string;
  description: string | null;
  metadata: Record<string, unknown>;
}

export type MemoryFilter = Omit<ListMemoriesInput, "limit" | "offset" | "sort" | "order"> & {
  limit: number;
  offset: number;
  sort: "created_at" | "updated_at";
  order: "asc" | "desc";
};

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
const indexKeys = (space: Space) => {
  const ks = keyspace(space);
  return [ks.byCreated, ks.byUpdated, ks.roots, ks.externalIds, ks.entityNames, ks.entitiesByCreated];
};

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

  return {
    async createMemory(space: Space, id: string, f: MemoryFields, maxDepth: number): Promise<MemoryRow> {
      const metadata = JSON.stringify(f.metadata);
      const args = [
        id,
        f.content,
        f.content_type,
        f.tier,
        f.memory_nature,
        f.parent ?? "",
        f.external_id ?? "",
        metadata,
        maxDepth,
      ];
      return newMemoryRow(id, f, await run<number>("create", space, args));
    },

    async getMemories(space: Space, ids: string[]): Promise<(MemoryRow | null)[]> {
      if (ids.length === 0) return [];
      return (await run<ReadMemoryReply[]>("get", space, ids)).map(parseMemory);
    },

    /** `patch` holds only the fields to set; null parent/external_id clears them. */
    async updateMemory(
      space: Space,
      id: string,
      patch: Partial<MemoryFields>,
      maxDepth: number,
    ): Promise<{ row: MemoryRow; changed: string[] }> {
      const fields: Record<string, string | null> = {};
      for (const [field, value] of Object.entries(patch)) {
        if (value !== undefined)
          fields[field] = field === "metadata" ? JSON.stringify(value) : (value as string | null);
      }
      const r = await run<[ReadMemoryReply, string[]]>("update", space, [id, maxDepth, JSON.stringify(fields)]);
      return { row: parseMemory(r[0])!, changed: r[1] };
    },

    async deleteMemory(
      space: Space,
      id: string,
      cascade: boolean,
    ): Promise<{ deleted: { id: string; version: number }[]; orphans: MemoryRow[] }> {
      const r = await run<[(string | number)[], ReadMemoryReply[]]>("delete", space, [id, cascade ? "1" : "0"]);
      const deleted: { id: string; version: number }[] = [];
      for (let i = 0; i < r[0].length; i += 2) deleted.push({ id: String(r[0][i]), version: Number(r[0][i + 1]) });
      return { deleted, orphans: parseMemories(r[1]) };
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
      const ms = (iso: string | undefined) => (iso === undefined ? "" : String(Date.parse(iso)));
      const args = [
        q.sort === "updated_at" ? "updated" : "created",
        q.order,
        q.offset,
        q.limit,
        ms(q.created_after),
        ms(q.created_before),
        q.root === false ? "1" : "0",
        q.external_id ?? "",
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
      const optional = JSON.stringify({ description: f.description });
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
