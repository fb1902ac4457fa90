import { Type as T, type Static } from "@sinclair/typebox";
import type { Memory } from "./memories";

/**
 * Domain events on the JetStream stream EVENTS (subjects `events.memory.<type>`), published after
 * every committed write. `version` grows with every change of a memory (content, fields, tags,
 * entities), so consumers apply events idempotently and drop stale ones.
 */
export const MEMORY_EVENT_TYPES = ["created", "updated", "deleted", "tags_changed", "entities_changed"] as const;
export type MemoryEventType = (typeof MEMORY_EVENT_TYPES)[number];

export const memoryEventSubject = (type: MemoryEventType) => `events.memory.${type}`;
export const MEMORY_EVENTS_WILDCARD = "events.memory.>";

/** What an index needs of a memory: its searchable text and filterable fields. */
export const MemorySnapshot = T.Object({
  id: T.String(),
  content: T.String(),
  content_type: T.String(),
  tier: T.String(),
  memory_nature: T.String(),
  parent_memory_id: T.Union([T.String(), T.Null()]),
  external_id: T.Union([T.String(), T.Null()]),
  metadata: T.Record(T.String(), T.Unknown()),
  tag_ids: T.Array(T.String()),
  entity_ids: T.Array(T.String()),
  created_at: T.String(),
  updated_at: T.String(),
  // Optional, so an event of a publisher that does not know them yet still reads (absent: created_at, null).
  occurred_at: T.Optional(T.String()),
  expires_at: T.Optional(T.Union([T.String(), T.Null()])),
  supersedes: T.Optional(T.Union([T.String(), T.Null()])),
  superseded_by: T.Optional(T.Union([T.String(), T.Null()])),
  valid_to: T.Optional(T.Union([T.String(), T.Null()])),
  version: T.Integer(),
});
export type MemorySnapshot = Static<typeof MemorySnapshot>;

/** Why a memory was deleted: a delete call (a cascade included), or the expiry sweeper's purge. */
export const DELETE_REASONS = ["deleted", "expired"] as const;
export type DeleteReason = (typeof DELETE_REASONS)[number];

export const MemoryEvent = T.Object({
  type: T.Union(MEMORY_EVENT_TYPES.map((t) => T.Literal(t))),
  tenant: T.String(),
  env: T.Union([T.Literal("live"), T.Literal("test")]),
  memory_id: T.String(),
  version: T.Integer(),
  /** Names of the fields that changed (for `updated`); empty otherwise. */
  changed: T.Array(T.String()),
  /** The memory after the change; null when deleted. */
  memory: T.Union([MemorySnapshot, T.Null()]),
  /** Set on `deleted` events only. */
  reason: T.Optional(T.Union(DELETE_REASONS.map((r) => T.Literal(r)))),
  at: T.String(),
});
export type MemoryEvent = Static<typeof MemoryEvent>;

/** What a snapshot is made of: a memory as the API shows it, whose tags need only their ids. */
export type SnapshotSource = Omit<Memory, "tags"> & { tags: readonly { id: string }[] };

/**
 * The one builder of a memory's snapshot, at a given version (-1 = unknown). Link ids come sorted,
 * so one memory read by any service (memories, tags, a search rebuild) gives one snapshot.
 */
export const snapshotOfMemory = (m: SnapshotSource, version: number): MemorySnapshot => ({
  id: m.id,
  content: m.content,
  content_type: m.content_type,
  tier: m.tier,
  memory_nature: m.memory_nature,
  parent_memory_id: m.parent_memory_id,
  external_id: m.external_id,
  metadata: m.metadata,
  tag_ids: m.tags.map((t) => t.id).sort(),
  entity_ids: [...m.entity_ids].sort(),
  created_at: m.created_at,
  updated_at: m.updated_at,
  occurred_at: m.occurred_at,
  expires_at: m.expires_at,
  supersedes: m.supersedes,
  superseded_by: m.superseded_by,
  valid_to: m.valid_to,
  version,
});
