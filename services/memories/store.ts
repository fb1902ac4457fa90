import type Redis from "ioredis";
import { keyspace, slot, type Space } from "../kit/keyspace";
import type { ListMemoriesInput } from "../contract/memories";
import type { Entity } from "../contract/entities";
import { memoriesLibrary, type ScriptName } from "./library";
import { foldName, newMemoryRow, parseEntity, parseMemories, parseMemory, type MemoryFields, type MemoryRow, type RawEntity, type RawMemory } from "./record";

/**
 * The only code of the memories service that touches Redis. Every write is one Lua script (lua/*.lua)
 * that checks first, then updates the record and every index and link together; reads are one script
 * too, so a memory comes back with its tags and entity ids in one round trip.
 */
export type ConflictCode =
  | "not_found"
  | "parent_missing"
  | "too_deep"
  | "cycle"
  | "self_parent"
  | "external_id_taken"
  | "memory_missing"
  | "entity_missing"
  | "name_taken";

/** An expected refusal of a script (checked before it wrote anything); `ids` names what was missing. */
export class Conflict {
  constructor(
    readonly code: ConflictCode,
    readonly ids: string[] = [],
  ) {}
}

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
 * cjson writes an empty Lua table as `{}`. The scripts answer only lists (a hash comes as its flat
 * field/value list, metadata as a JSON string), so every object in an answer is an empty list.
 */
function emptyTablesAsLists(x: unknown): unknown {
  if (!Array.isArray(x)) return x !== null && typeof x === "object" ? [] : x;
  for (let i = 0; i < x.length; i++) if (x[i] !== null && typeof x[i] === "object") x[i] = emptyTablesAsLists(x[i]);
  return x;
}
const CONFLICT_RE = /^CONFLICT (\w+)(?: (.*))?$/;
const NAME_KEY = (type: string, folded: string) => `${type}:${folded}`;

const FUNCTION_MISSING_RE = /function not found/i;

export function createMemoryStore(redis: Redis) {
  const library = memoriesLibrary();
  let loading: Promise<unknown> | null = null;
  /** Loads the library into a Redis that lacks it (first use, a fresh or flushed Redis); calls that miss it together share one load. */
  const load = () =>
    (loading ??= redis.call("FUNCTION", "LOAD", "REPLACE", library.text).finally(() => {
      loading = null;
    }));
  const fcall = (name: ScriptName, space: Space, args: (string | number)[]) =>
    redis.fcall(library.functionName(name), 1, keyspace(space).byCreated, slot(space), ...args) as Promise<string>;
  /** One script call; a Redis without the library (fresh, restarted, flushed) gets it and the call is made again. */
  const call = async (name: ScriptName, space: Space, args: (string | number)[]) => {
    try {
      return await fcall(name, space, args);
    } catch (err) {
      if (!FUNCTION_MISSING_RE.test((err as Error).message ?? "")) throw err;
      await load();
      return await fcall(name, space, args);
    }
  };

  /** Runs a script for one tenant+environment; an expected refusal comes back as a Conflict. */
  async function run<T>(name: ScriptName, space: Space, args: (string | number)[]): Promise<T | Conflict> {
    try {
      return emptyTablesAsLists(JSON.parse(await call(name, space, args))) as T;
    } catch (err) {
      const m = CONFLICT_RE.exec((err as Error).message ?? "");
      if (m) return new Conflict(m[1] as ConflictCode, m[2] ? m[2].split(",") : []);
      throw err;
    }
  }

  const must = <T>(r: T | Conflict): T => {
    if (r instanceof Conflict) throw new Error(`unexpected conflict ${r.code}`);
    return r;
  };

  return {
    async createMemory(space: Space, id: string, f: MemoryFields, maxDepth: number): Promise<MemoryRow | Conflict> {
      const args = [id, f.content, f.content_type, f.tier, f.memory_nature, f.parent ?? "", f.external_id ?? "", JSON.stringify(f.metadata), maxDepth];
      const created = await run<number>("create", space, args);
      return created instanceof Conflict ? created : newMemoryRow(id, f, created);
    },

    async getMemories(space: Space, ids: string[]): Promise<(MemoryRow | null)[]> {
      if (ids.length === 0) return [];
      return must(await run<RawMemory[]>("get", space, ids)).map(parseMemory);
    },

    /** `patch` holds only the fields to set; null parent/external_id clears them. */
    async updateMemory(space: Space, id: string, patch: Partial<MemoryFields>, maxDepth: number): Promise<{ row: MemoryRow; changed: string[] } | Conflict> {
      const args: (string | number)[] = [id, maxDepth];
      for (const [field, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        args.push(field, field === "metadata" ? JSON.stringify(value) : ((value as string | null) ?? ""));
      }
      const r = await run<[RawMemory, string[]]>("update", space, args);
      return r instanceof Conflict ? r : { row: parseMemory(r[0])!, changed: r[1] };
    },

    async deleteMemory(space: Space, id: string, cascade: boolean): Promise<{ deleted: { id: string; version: number }[]; orphans: MemoryRow[] } | Conflict> {
      const r = await run<[(string | number)[], RawMemory[]]>("delete", space, [id, cascade ? "1" : "0"]);
      if (r instanceof Conflict) return r;
      const deleted: { id: string; version: number }[] = [];
      for (let i = 0; i < r[0].length; i += 2) deleted.push({ id: String(r[0][i]), version: Number(r[0][i + 1]) });
      return { deleted, orphans: parseMemories(r[1]) };
    },

    async ancestors(space: Space, id: string, maxDepth: number): Promise<string[] | null> {
      const r = must(await run<string[] | false>("ancestors", space, [id, maxDepth]));
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
        ...sets,
      ];
      const [total, raws] = must(await run<[number, RawMemory[]]>("list", space, args));
      return { total: Number(total), rows: parseMemories(raws) };
    },

    async createEntity(space: Space, id: string, f: EntityFields, memoryIds: string[]): Promise<{ entity: Entity; linked: MemoryRow[] } | Conflict> {
      const args = [id, f.name, f.type, NAME_KEY(f.type, foldName(f.name)), f.description ?? "", f.description === null ? "0" : "1", JSON.stringify(f.metadata), ...memoryIds];
      const r = await run<[RawEntity, RawMemory[]]>("entity-create", space, args);
      return r instanceof Conflict ? r : { entity: parseEntity(r[0])!, linked: parseMemories(r[1]) };
    },

    async getEntity(space: Space, id: string): Promise<Entity | null> {
      return parseEntity(must(await run<RawEntity[]>("entity-get", space, [id]))[0] ?? null);
    },

    /** Aligned with `ids`; null where unknown. */
    async getEntities(space: Space, ids: string[]): Promise<(Entity | null)[]> {
      if (ids.length === 0) return [];
      return must(await run<RawEntity[]>("entity-get", space, ids)).map((raw) => parseEntity(raw ?? null));
    },

    async updateEntity(space: Space, id: string, patch: Partial<EntityFields>): Promise<Entity | Conflict> {
      const args: string[] = [id];
      if (patch.name !== undefined) args.push("name", patch.name, "lname", foldName(patch.name));
      if (patch.type !== undefined) args.push("type", patch.type);
      if (patch.description === null) args.push("drop", "description");
      else if (patch.description !== undefined) args.push("description", patch.description);
      if (patch.metadata !== undefined) args.push("metadata", JSON.stringify(patch.metadata));
      const r = await run<RawEntity>("entity-update", space, args);
      return r instanceof Conflict ? r : parseEntity(r)!;
    },

    /** Returns the memories that were linked (now unlinked, version bumped). */
    async deleteEntity(space: Space, id: string): Promise<MemoryRow[] | Conflict> {
      const r = await run<RawMemory[]>("entity-delete", space, [id]);
      return r instanceof Conflict ? r : parseMemories(r);
    },

    async linkEntity(space: Space, id: string, memoryIds: string[]): Promise<{ added: number; skipped: number; count: number; linked: MemoryRow[] } | Conflict> {
      const r = await run<[number, number, number, RawMemory[]]>("entity-link", space, [id, ...memoryIds]);
      return r instanceof Conflict ? r : { added: r[0], skipped: r[1], count: r[2], linked: parseMemories(r[3]) };
    },

    async unlinkEntity(space: Space, id: string, memoryId: string): Promise<{ removed: boolean; row: MemoryRow | null } | Conflict> {
      const r = await run<[number, RawMemory?]>("entity-unlink", space, [id, memoryId]);
      return r instanceof Conflict ? r : { removed: r[0] === 1, row: parseMemory(r[1] ?? null) };
    },

    async listEntities(space: Space, q: { offset: number; limit: number; type?: string; search?: string }): Promise<{ total: number; items: Entity[] }> {
      const args = [q.offset, q.limit, q.type ?? "", q.search ? foldName(q.search) : ""];
      const [total, raws] = must(await run<[number, RawEntity[]]>("entity-list", space, args));
      return { total: Number(total), items: raws.map(parseEntity).filter((e): e is Entity => e !== null) };
    },
  };
}

export type MemoryStore = ReturnType<typeof createMemoryStore>;
