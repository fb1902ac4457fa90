import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Enum, Nullable, ORDERS, Page, pageInput, Uuid } from "./common";
import { checkingMetadata, Metadata, withMetadataLimits } from "./metadata";
import { compileValidator } from "./validation";
import { ERROR_TABLE, type ErrorCode } from "./errors";
import { indexWaitMs } from "./index-wait";

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
/**
 * A memory's fields that name another memory, each with the fields that tell of that memory and go with it
 * when a caller may not see it (a token's restriction: they read as null). Every reader that hides them uses it.
 */
export const MEMORY_LINK_FIELDS = [
  ["parent_memory_id", []],
  ["supersedes", []],
  ["superseded_by", ["valid_to"]],
] as const;
/** `ttl_seconds` at most 100 years. */
export const TTL_SECONDS_MAX = 3_153_600_000;
/** How many `superseded_by` links a create follows from the memory it names to the latest of its chain. */
export const SUPERSESSION_WALK_MAX = 1000;
/** Most memories of one `memories.createBatch` call. */
export const BATCH_MAX_ITEMS = 500;
/** Most siblings asked for on either side of a memory (context neighbours). */
export const SIBLINGS_MAX = 5;

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
  occurred_at: DateTime({ description: "When it happened (given, or created_at): the order of a thread's turns." }),
  expires_at: Nullable(DateTime({ description: "From then on it is gone (404), even before it is purged." })),
  supersedes: Nullable(Uuid({ description: "The memory this one replaced." })),
  superseded_by: Nullable(Uuid({ description: "The memory that replaced this one; null while it is the latest." })),
  valid_to: Nullable(DateTime({ description: "The occurred_at of the memory that replaced this one." })),
});
export type Memory = Static<typeof Memory>;

const Content = T.String({
  minLength: 1,
  maxLength: CONTENT_MAX_LENGTH,
  description: `1 to ${CONTENT_MAX_LENGTH} characters (UTF-16 code units).`,
});
const OccurredAt = DateTime({ description: "When the thing happened (default: created_at); orders a thread." });
const ExpiresAt = Nullable(
  DateTime({ description: "In the future; null = never (no retention default either). Absent: the tier's default." }),
);
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
    occurred_at: T.Optional(OccurredAt),
    expires_at: T.Optional(ExpiresAt),
    ttl_seconds: T.Optional(
      T.Integer({ minimum: 1, maximum: TTL_SECONDS_MAX, description: "Expires this long after creation." }),
    ),
    supersedes: T.Optional(
      Uuid({ description: "A memory this one replaces (or the latest of its chain, followed from it)." }),
    ),
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
    occurred_at: T.Optional(OccurredAt),
    expires_at: T.Optional(Nullable(DateTime({ description: "In the future; null = never." }))),
  },
  { additionalProperties: false },
);
export type UpdateMemoryInput = Static<typeof UpdateMemoryInput>;

export const MEMORY_SORTS = ["created_at", "updated_at", "occurred_at"] as const;

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
    occurred_after: T.Optional(DateTime({ description: "Exclusive lower bound on occurred_at." })),
    occurred_before: T.Optional(DateTime({ description: "Exclusive upper bound on occurred_at." })),
    sort: T.Optional(
      Enum(MEMORY_SORTS, { default: "created_at", description: "occurred_at: ties by created_at, then id." }),
    ),
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
    claimsIdempotencyKey: true,
  }),
);

export const CreateMemoryItem = T.Object(
  {
    ...CreateMemoryInput.properties,
    parent_ref: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: BATCH_MAX_ITEMS - 2,
        description:
          "The index of an earlier item of the same call: its memory is this one's parent. " +
          "Not with parent_memory_id.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateMemoryItem = Static<typeof CreateMemoryItem>;

/** One item of a batch, checked alone as a single create's input is (schema, then metadata limits). */
export const validateMemoryItem = checkingMetadata(compileValidator(CreateMemoryItem));

/** An item's refusal: the error of a single create, with its code, message and `details`. */
export const ItemError = T.Object({
  code: Enum(Object.keys(ERROR_TABLE) as ErrorCode[]),
  message: T.String(),
  details: T.Optional(T.Record(T.String(), T.Unknown())),
});

const BatchInput = T.Object(
  {
    items: T.Array(CreateMemoryItem, {
      minItems: 1,
      maxItems: BATCH_MAX_ITEMS,
      description: `1 to ${BATCH_MAX_ITEMS} memories, each checked alone; created in this order.`,
    }),
  },
  { additionalProperties: false },
);
/** Only the call's shape; each item is checked alone (validateMemoryItem), so one bad item fails alone. */
const validateBatchShape = compileValidator(
  T.Object(
    { items: T.Array(T.Unknown(), { minItems: 1, maxItems: BATCH_MAX_ITEMS }) },
    { additionalProperties: false },
  ),
);

export const createMemories = {
  ...op({
    subject: "memories.createBatch",
    input: BatchInput,
    output: T.Object({
      items: T.Array(
        T.Union([T.Object({ data: Memory }), T.Object({ error: ItemError })], {
          description: "Aligned with the call's items: the memory created, or why that item was not.",
        }),
      ),
      created: T.Integer({ minimum: 0 }),
      failed: T.Integer({ minimum: 0 }),
    }),
    scope: "memories:write",
    summary: `Create up to ${BATCH_MAX_ITEMS} memories in one call; an item may name an earlier one as its parent`,
    // The batch waits for the search index (read-your-writes), and then some.
    timeoutMs: indexWaitMs(BATCH_MAX_ITEMS) + 5_000,
  }),
  validate: validateBatchShape as unknown as (input: unknown) => Static<typeof BatchInput>,
};

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

export const memorySiblings = op({
  subject: "memories.siblings",
  idempotent: true,
  input: T.Object(
    { id: PathId, count: T.Integer({ minimum: 0, maximum: SIBLINGS_MAX }) },
    { additionalProperties: false },
  ),
  output: T.Object({
    before: T.Array(Memory, { description: "Up to `count` siblings just before it, in thread order." }),
    after: T.Array(Memory, { description: "Up to `count` siblings just after it, in thread order." }),
  }),
  summary: "Internal: the siblings around a memory in its thread (by occurred_at, then created_at, then id)",
});

export const memoryAncestors = op({
  subject: "memories.ancestors",
  idempotent: true,
  input: T.Object({ id: PathId }, { additionalProperties: false }),
  output: T.Object({ id: Uuid(), ancestor_ids: T.Array(Uuid(), { description: "Parent first, root last." }) }),
  scope: "memories:read",
  summary: "Internal: the ids above a memory, up to its root",
});
