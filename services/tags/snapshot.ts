import type { MemorySnapshot } from "../contract/events";
import { readMemoryHash } from "../memory-data/memory-hash";

/** One memory as read in one MULTI: its hash and both link sets, so the three agree with `v`. */
export interface MemoryHashAndLinks {
  id: string;
  hash: Record<string, string>;
  tagIds: string[];
  entityIds: string[];
}

/** The memory hash (read as the memories service reads it) → the snapshot events and the search index carry. */
export function toSnapshot(m: MemoryHashAndLinks): MemorySnapshot {
  const { fields: f, createdAt, updatedAt, version } = readMemoryHash(m.hash);
  return {
    id: m.id,
    content: f.content,
    content_type: f.content_type,
    tier: f.tier,
    memory_nature: f.memory_nature,
    parent_memory_id: f.parent,
    external_id: f.external_id,
    metadata: f.metadata,
    tag_ids: [...m.tagIds].sort(),
    entity_ids: [...m.entityIds].sort(),
    created_at: createdAt,
    updated_at: updatedAt,
    version,
  };
}
