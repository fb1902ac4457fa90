import { snapshotOfMemory, type MemorySnapshot } from "../contract/events";
import type { Memory } from "../contract/memories";

/**
 * The memory hash (`keyspace().memory(id)`), written by the memories service and read here only: the
 * memories service's own reads and the tags service's event snapshots both come through `readMemoryHash`
 * and `memoryOf`, so the two services cannot disagree on what a stored memory says.
 */

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

/** What a memory's life adds to its fields: when it happened, when it ends, what replaced it. ISO 8601 or null. */
export interface Lifecycle {
  /** The stored `occurred_at`, or created_at when none is stored. */
  occurredAt: string;
  expiresAt: string | null;
  supersedes: string | null;
  supersededBy: string | null;
  validTo: string | null;
}

export interface StoredMemory {
  fields: MemoryFields;
  lifecycle: Lifecycle;
  /** ISO 8601, millisecond precision, UTC. */
  createdAt: string;
  updatedAt: string;
  /** Bumped by every change of the memory or its links; 0 when absent. */
  version: number;
}

/** Epoch milliseconds (as stored, or a number) → ISO 8601 UTC; absent reads as the epoch. */
export const isoOfMs = (ms: string | number | undefined) => new Date(Number(ms ?? 0)).toISOString();

/**
 * Stored metadata (of a memory or an entity) is a JSON object; anything else reads as `{}`
 * rather than breaking the shape.
 */
export function parseMetadata(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const isoOrNull = (ms: string | undefined) => (ms ? isoOfMs(ms) : null);

/** Empty `parent` / `external_id` mean none; timestamps are stored as epoch milliseconds. */
export function readMemoryHash(h: Record<string, string>): StoredMemory {
  return {
    fields: {
      content: h.content ?? "",
      content_type: h.content_type ?? "",
      tier: h.tier ?? "",
      memory_nature: h.memory_nature ?? "",
      parent: h.parent || null,
      external_id: h.external_id || null,
      metadata: parseMetadata(h.metadata),
    },
    lifecycle: {
      occurredAt: isoOfMs(h.occurred_at || h.created_at),
      expiresAt: isoOrNull(h.expires_at),
      supersedes: h.supersedes || null,
      supersededBy: h.superseded_by || null,
      validTo: isoOrNull(h.valid_to),
    },
    createdAt: isoOfMs(h.created_at),
    updatedAt: isoOfMs(h.updated_at),
    version: Number(h.v ?? 0) || 0,
  };
}

/** A memory's API shape from what is stored of it and the links read with it (tags as refs, or ids alone). */
export function memoryOf<Tag>(
  id: string,
  m: Omit<StoredMemory, "version">,
  tags: Tag[],
  entityIds: string[],
): Omit<Memory, "tags"> & { tags: Tag[] } {
  const f = m.fields;
  const l = m.lifecycle;
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
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    occurred_at: l.occurredAt,
    expires_at: l.expiresAt,
    supersedes: l.supersedes,
    superseded_by: l.supersededBy,
    valid_to: l.validTo,
  };
}

/** The snapshot of a memory read as its hash and both link sets (in one transaction, so they agree with `v`). */
export function snapshotOfHash(
  id: string,
  hash: Record<string, string>,
  tagIds: string[],
  entityIds: string[],
): MemorySnapshot {
  const stored = readMemoryHash(hash);
  return snapshotOfMemory(
    memoryOf(
      id,
      stored,
      tagIds.map((tagId) => ({ id: tagId })),
      entityIds,
    ),
    stored.version,
  );
}
