import type { Memory } from "../contract/memories";
import type { Entity } from "../contract/entities";
import { hashOfPairs } from "../kit/redis-replies";
import { isoOfMs, memoryOf, parseMetadata, readMemoryHash, type MemoryFields } from "../memory-data/memory-hash";

export type { MemoryFields } from "../memory-data/memory-hash";

/** A memory as read from Redis: the public shape plus its version counter `v`. */
export interface MemoryRow {
  memory: Memory;
  version: number;
}

/** What read_memory (lua/helpers.lua) returns: id, flat hash, tag triples, entity ids; false when absent. */
export type ReadMemoryReply = [string, string[], string[], string[]] | false | null;
export type ReadEntityReply = [string, string[], number] | false | null;

const byNameThenId = (a: { id: string; name: string }, b: { id: string; name: string }) => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

export function parseMemory(raw: ReadMemoryReply): MemoryRow | null {
  if (!raw) return null;
  const [id, flat, tagTriples, entityIds] = raw;
  const stored = readMemoryHash(hashOfPairs(flat));
  const tags: Memory["tags"] = [];
  for (let i = 0; i < tagTriples.length; i += 3)
    tags.push({ id: tagTriples[i]!, name: tagTriples[i + 1]!, color: tagTriples[i + 2] || null });
  tags.sort(byNameThenId);
  return { version: stored.version, memory: memoryOf(id, stored, tags, [...entityIds].sort()) };
}

/** The row of a memory just created at `createdMs` (version 1, no tags or entities yet). */
export function newMemoryRow(id: string, f: MemoryFields, createdMs: number): MemoryRow {
  const at = isoOfMs(createdMs);
  return { version: 1, memory: memoryOf(id, { fields: f, createdAt: at, updatedAt: at }, [], []) };
}

export const parseMemories = (raws: ReadMemoryReply[]): MemoryRow[] =>
  raws.map(parseMemory).filter((r): r is MemoryRow => r !== null);

export function parseEntity(raw: ReadEntityReply): Entity | null {
  if (!raw) return null;
  const [id, flat, count] = raw;
  const h = hashOfPairs(flat);
  return {
    id,
    name: h.name ?? "",
    type: h.type as Entity["type"],
    description: h.description ?? null,
    metadata: parseMetadata(h.metadata),
    memory_count: Number(count),
    created_at: isoOfMs(h.created_at),
    updated_at: isoOfMs(h.updated_at),
  };
}
