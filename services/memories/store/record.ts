import type { Memory } from "../../contract/memories";
import type { Entity } from "../../contract/entities";
import { hashOfPairs } from "../../kit/redis-replies";
import {
  isoOfMs,
  memoryOf,
  parseMetadata,
  readMemoryHash,
  type Lifecycle,
  type MemoryFields,
} from "../../memory-data/memory-hash";

export type { MemoryFields } from "../../memory-data/memory-hash";

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

/**
 * What create.lua answers: creation ms, update ms, occurred_at ms, expires_at ms ('' = never), supersedes ('' =
 * none), the memory it superseded, the memory an import found replacing it.
 */
export type CreatedReply = [string, string, string, string, string, ReadMemoryReply, ReadMemoryReply];

/**
 * The row of a memory just created (version 1, no tags or entities yet), from its fields and create's reply;
 * `replacedBy`: the memory that replaces it (an import's), whose occurred_at ends it.
 */
export function rowOfCreateReply(id: string, f: MemoryFields, reply: CreatedReply, replacedBy?: MemoryRow): MemoryRow {
  const [createdMs, updatedMs, occurredMs, expiresMs, supersedes] = reply;
  const lifecycle: Lifecycle = {
    occurredAt: isoOfMs(occurredMs),
    expiresAt: expiresMs ? isoOfMs(expiresMs) : null,
    supersedes: supersedes || null,
    supersededBy: replacedBy?.memory.id ?? null,
    validTo: replacedBy?.memory.occurred_at ?? null,
  };
  return {
    version: 1,
    memory: memoryOf(
      id,
      { fields: f, lifecycle, createdAt: isoOfMs(createdMs), updatedAt: isoOfMs(updatedMs) },
      [],
      [],
    ),
  };
}

/** Memories removed (delete, purge): each at the version of its deletion. */
export interface Removal {
  deleted: { id: string; version: number }[];
  /** Memories the removal changed (children made roots, a replaced memory the latest again). */
  updates: { row: MemoryRow; changed: string[] }[];
}

/** life.lua's removal_reply: { {id, version, ...}, { {read_memory, {fields}} ... } }. */
export type RemovalReply = [(string | number)[], [ReadMemoryReply, string[]][]];

export function parseRemoval([flat, updates]: RemovalReply): Removal {
  const deleted: Removal["deleted"] = [];
  for (let i = 0; i < flat.length; i += 2) deleted.push({ id: String(flat[i]), version: Number(flat[i + 1]) });
  return {
    deleted,
    updates: updates.flatMap(([raw, changed]) => {
      const row = parseMemory(raw);
      return row ? [{ row, changed: [...new Set(changed)] }] : [];
    }),
  };
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
