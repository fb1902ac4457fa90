import type { Memory } from "../contract/memories";
import type { Entity } from "../contract/entities";
import { snapshotOfMemory, type MemorySnapshot } from "../contract/events";

/** A memory as read from Redis: the public shape plus its version counter `v`. */
export interface MemoryRow {
  memory: Memory;
  version: number;
}

/** A memory's own fields as the store writes them (`parent` is parent_memory_id). */
export interface MemoryFields {
  content: string;
  content_type: string;
  tier: string;
  memory_nature: string;
  parent: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
}

/** What read_memory (lua/helpers.lua) returns: id, flat hash, tag triples, entity ids; false when absent. */
export type RawMemory = [string, string[], string[], string[]] | false | null;
export type RawEntity = [string, string[], number] | false | null;

const hashOf = (flat: string[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
};

const iso = (ms: string | undefined) => new Date(Number(ms)).toISOString();

const byNameThenId = (a: { id: string; name: string }, b: { id: string; name: string }) => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

export function parseMemory(raw: RawMemory): MemoryRow | null {
  if (!raw) return null;
  const [id, flat, tagTriples, entityIds] = raw;
  const h = hashOf(flat);
  const tags: Memory["tags"] = [];
  for (let i = 0; i < tagTriples.length; i += 3) tags.push({ id: tagTriples[i]!, name: tagTriples[i + 1]!, color: tagTriples[i + 2] || null });
  tags.sort(byNameThenId);
  const fields: MemoryFields = {
    content: h.content ?? "",
    content_type: h.content_type!,
    tier: h.tier!,
    memory_nature: h.memory_nature!,
    parent: h.parent || null,
    external_id: h.external_id ?? null,
    metadata: h.metadata ? (JSON.parse(h.metadata) as Record<string, unknown>) : {},
  };
  return { version: Number(h.v ?? 0), memory: memoryOf(id, fields, tags, [...entityIds].sort(), iso(h.created_at), iso(h.updated_at)) };
}

/** The row of a memory just created at `createdMs` (version 1, no tags or entities yet). */
export function newMemoryRow(id: string, f: MemoryFields, createdMs: number): MemoryRow {
  const at = new Date(createdMs).toISOString();
  return { version: 1, memory: memoryOf(id, f, [], [], at, at) };
}

/** The API shape of a memory from its own fields and its links. */
function memoryOf(id: string, f: MemoryFields, tags: Memory["tags"], entityIds: string[], createdAt: string, updatedAt: string): Memory {
  return {
    id,
    content: f.content,
    content_type: f.content_type as Memory["content_type"],
    tier: f.tier as Memory["tier"],
    memory_nature: f.memory_nature as Memory["memory_nature"],
    parent_memory_id: f.parent,
    external_id: f.external_id,
    metadata: f.metadata,
    tags,
    entity_ids: entityIds,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

export const parseMemories = (raws: RawMemory[]): MemoryRow[] => raws.map(parseMemory).filter((r): r is MemoryRow => r !== null);

export function parseEntity(raw: RawEntity): Entity | null {
  if (!raw) return null;
  const [id, flat, count] = raw;
  const h = hashOf(flat);
  return {
    id,
    name: h.name ?? "",
    type: h.type as Entity["type"],
    description: h.description ?? null,
    metadata: h.metadata ? (JSON.parse(h.metadata) as Record<string, unknown>) : {},
    memory_count: Number(count),
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
  };
}

/** What the search index and event consumers get of a memory. */
export const toSnapshot = ({ memory, version }: MemoryRow): MemorySnapshot => snapshotOfMemory(memory, version);

/** Case-insensitive comparison key of names (entity uniqueness, search): NFC, then lower case. */
export const foldName = (name: string) => name.normalize("NFC").toLowerCase();
