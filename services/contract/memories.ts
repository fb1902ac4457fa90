import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Enum, Nullable, ORDERS, Page, pageInput, Uuid } from "./common";
import { Metadata, withMetadataLimits } from "./metadata";

export const CONTENT_TYPES = ["text", "conversation", "document", "event", "fact"] as const;
export const TIERS = ["short", "medium", "long"] as const;
export const MEMORY_NATURES = ["episodic", "semantic"] as const;

/**
 * Defaults of a memory created without them: plain `text`, the neutral middle `medium` tier (the spec
 * suggests `long` for roots and `short` for leaves, by convention only) and `episodic` (a memory records
 * something that happened, unless the client says it is general knowledge).
 */
export const MEMORY_DEFAULTS = { content_type: "text", tier: "medium", memory_nature: "episodic" } as const;

export const CONTENT_MAX_LENGTH = 100_000;
export const EXTERNAL_ID_MAX_LENGTH = 255;
/** A root is level 1; a memory may sit at most this many levels deep. */
export const MAX_HIERARCHY_DEPTH = 64;

/** An id in a path: any unknown value (malformed or not) is simply "not found". */
export const PathId = T.String({ minLength: 1, maxLength: 64 });

export const TagRef = T.Object({ id: Uuid(), name: T.String(), color: Nullable(T.String()) });

export const Memory = T.Object({
  id: Uuid(),
  content: T.String(),
  content_type: Enum(CONTENT_TYPES),
  tier: Enum(TIERS),
  memory_nature: Enum(MEMORY_NATURES),
  parent_memory_id: Nullable(Uuid()),
  external_id: Nullable(T.String()),
  metadata: T.Record(T.String(), T.Unknown()),
  tags: T.Array(TagRef, { description: "Attached tags, sorted by name." }),
  entity_ids: T.Array(Uuid(), { description: "Linked entities, sorted by id." }),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type Memory = Static<typeof Memory>;

const Content = T.String({
  minLength: 1,
  maxLength: CONTENT_MAX_LENGTH,
  description: `1 to ${CONTENT_MAX_LENGTH} characters (UTF-16 code units).`,
});
const ExternalId = T.String({
  minLength: 1,
  maxLength: EXTERNAL_ID_MAX_LENGTH,
  description: "Unique per tenant and environment.",
});

export const CreateMemoryInput = T.Object(
  {
    content: Content,
    content_type: T.Optional(Enum(CONTENT_TYPES, { default: MEMORY_DEFAULTS.content_type })),
    tier: T.Optional(Enum(TIERS, { default: MEMORY_DEFAULTS.tier })),
    memory_nature: T.Optional(Enum(MEMORY_NATURES, { default: MEMORY_DEFAULTS.memory_nature })),
    parent_memory_id: T.Optional(
      Nullable(Uuid({ description: "An existing memory of the same tenant; null or absent = a root." })),
    ),
    external_id: T.Optional(Nullable(ExternalId)),
    metadata: T.Optional(Metadata()),
  },
  { additionalProperties: false },
);
export type CreateMemoryInput = Static<typeof CreateMemoryInput>;

export const UpdateMemoryInput = T.Object(
  {
    id: PathId,
    content: T.Optional(Content),
    content_type: T.Optional(Enum(CONTENT_TYPES)),
    tier: T.Optional(Enum(TIERS)),
    memory_nature: T.Optional(Enum(MEMORY_NATURES)),
    parent_memory_id: T.Optional(Nullable(Uuid({ description: "null makes the memory a root." }))),
    external_id: T.Optional(Nullable(ExternalId)),
    metadata: T.Optional(Metadata({ description: "Replaces the whole metadata object." })),
  },
  { additionalProperties: false },
);
export type UpdateMemoryInput = Static<typeof UpdateMemoryInput>;

export const MEMORY_SORTS = ["created_at", "updated_at"] as const;

export const ListMemoriesInput = T.Object(
  {
    ...pageInput(50),
    parent_memory_id: T.Optional(Uuid({ description: "Only the children of this memory." })),
    root: T.Optional(T.Boolean({ description: "true: only roots; false: only memories with a parent." })),
    tier: T.Optional(Enum(TIERS)),
    content_type: T.Optional(Enum(CONTENT_TYPES)),
    memory_nature: T.Optional(Enum(MEMORY_NATURES)),
    tag_id: T.Optional(
      T.Array(Uuid(), { maxItems: 20, description: "Repeatable; memories carrying ALL of these tags." }),
    ),
    entity_id: T.Optional(Uuid({ description: "Memories linked to this entity." })),
    external_id: T.Optional(ExternalId),
    created_after: T.Optional(DateTime({ description: "Exclusive lower bound on created_at." })),
    created_before: T.Optional(DateTime({ description: "Exclusive upper bound on created_at." })),
    sort: T.Optional(Enum(MEMORY_SORTS, { default: "created_at" })),
    order: T.Optional(Enum(ORDERS, { default: "desc" })),
  },
  { additionalProperties: false },
);
export type ListMemoriesInput = Static<typeof ListMemoriesInput>;

export const createMemory = withMetadataLimits(
  op({
    subject: "memories.create",
    input: CreateMemoryInput,
    output: Memory,
    scope: "memories:write",
    summary: "Create a memory",
  }),
);

export const getMemory = op({
  subject: "memories.get",
  idempotent: true,
  input: T.Object({ id: PathId }, { additionalProperties: false }),
  output: Memory,
  scope: "memories:read",
  summary: "Get one memory with its tags and entity ids",
});

export const getMemories = op({
  subject: "memories.getMany",
  idempotent: true,
  input: T.Object({ ids: T.Array(PathId, { maxItems: 100 }) }, { additionalProperties: false }),
  output: T.Object({ items: T.Array(Nullable(Memory), { description: "Aligned with `ids`; null where unknown." }) }),
  scope: "memories:read",
  summary: "Internal (batch loader): memories by id, in the order asked",
});

export const listMemories = op({
  subject: "memories.list",
  idempotent: true,
  input: ListMemoriesInput,
  output: Page(Memory),
  scope: "memories:read",
  summary: "List memories with filters, sort and an exact total",
});

export const updateMemory = withMetadataLimits(
  op({
    subject: "memories.update",
    input: UpdateMemoryInput,
    output: Memory,
    scope: "memories:write",
    summary: "Update a memory partially (only sent fields change; metadata is replaced whole)",
  }),
);

export const deleteMemory = op({
  subject: "memories.delete",
  input: T.Object({ id: PathId, cascade: T.Optional(T.Boolean({ default: false })) }, { additionalProperties: false }),
  output: T.Object({
    id: Uuid(),
    deleted: T.Literal(true),
    deleted_count: T.Optional(
      T.Integer({ description: "With cascade=true: memories deleted, the memory itself included." }),
    ),
  }),
  scope: "memories:write",
  summary: "Delete a memory; its children become roots, or with cascade=true the whole subtree goes",
});

export const memoryAncestors = op({
  subject: "memories.ancestors",
  idempotent: true,
  input: T.Object({ id: PathId }, { additionalProperties: false }),
  output: T.Object({ id: Uuid(), ancestor_ids: T.Array(Uuid(), { description: "Parent first, root last." }) }),
  scope: "memories:read",
  summary: "Internal: the ids above a memory, up to its root",
});
