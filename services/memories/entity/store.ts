import type { Space } from "../../kit/space";
import { foldName } from "../../memory-data/keyspace";
import type { Entity } from "../../contract/entities";
import type { MemoriesCaller } from "../store/call";
import {
  parseEntity,
  parseMemories,
  parseMemory,
  type MemoryRow,
  type ReadEntityReply,
  type ReadMemoryReply,
} from "../store/record";

export interface EntityFields {
  name: string;
  type: string;
  description: string | null;
  metadata: Record<string, unknown>;
  /** An import's creation time (ms), kept unless still to come; absent: now. */
  created_at?: number;
}

/** The name index's member of an entity: one name per type, letter case aside. */
const NAME_KEY = (type: string, folded: string) => `${type}:${folded}`;

/**
 * The entities' Redis calls (lua/entity-*.lua): an entity and its links to memories change in one step, and a
 * write answers the memories whose version it bumped, for their events.
 */
export function entityStore(call: MemoriesCaller) {
  const run = call.space;
  return {
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
