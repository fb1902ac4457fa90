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

/**
 * A message on `events.memory.<type>` carries one event of that type, or a JSON array of such events from one
 * write that changed several memories (a batch, an import, a tag link on many memories), in the write's order: the
 * stream's cost per message then falls on the write, not on each memory. `memoryEventsOf` reads both forms. An
 * array holds at most this many characters of JSON; a single event larger than that goes alone.
 */
export const MEMORY_EVENTS_MESSAGE_CHARS = 256 * 1024;

/**
 * What a consumer of these events pulls at most at once, in bytes: a message may carry many events, so a count of
 * messages would not bound the memory a backlog takes (the consumer's max_ack_pending still bounds their count).
 */
export const MEMORY_EVENTS_PULL_BYTES = 16 * 1024 * 1024;

const decoder = new TextDecoder();

/** The events one message carries; throws on a message that is not a memory event or an array of them. */
export function memoryEventsOf(data: Uint8Array): MemoryEvent[] {
  const value: unknown = JSON.parse(decoder.decode(data));
  const events = Array.isArray(value) ? value : [value];
  for (const e of events)
    if (typeof e !== "object" || e === null || typeof (e as MemoryEvent).memory_id !== "string")
      throw new Error("not a memory event");
  return events as MemoryEvent[];
}

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
