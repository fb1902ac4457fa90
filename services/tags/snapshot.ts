import type { MemorySnapshot } from "../contract/events";

/** One memory as read in one MULTI: its hash and both link sets, so the three agree with `v`. */
export interface MemoryRaw {
  id: string;
  hash: Record<string, string>;
  tagIds: string[];
  entityIds: string[];
}

const iso = (ms: string | undefined) => new Date(Number(ms ?? 0)).toISOString();

function parseMetadata(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The memory hash (fields documented in kit/keyspace.ts, written by the memories service) → the
 * snapshot events and the search index carry. Empty `parent` / `external_id` mean none.
 */
export function toSnapshot(m: MemoryRaw): MemorySnapshot {
  const h = m.hash;
  return {
    id: m.id,
    content: h.content ?? "",
    content_type: h.content_type ?? "",
    tier: h.tier ?? "",
    memory_nature: h.memory_nature ?? "",
    parent_memory_id: h.parent || null,
    external_id: h.external_id || null,
    metadata: parseMetadata(h.metadata),
    tag_ids: [...m.tagIds].sort(),
    entity_ids: [...m.entityIds].sort(),
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
    version: Number(h.v ?? 0) || 0,
  };
}
