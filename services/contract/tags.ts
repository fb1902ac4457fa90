import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Deleted, Enum, Nullable, ORDERS, Page, pageInput, Uuid } from "./common";

/** Spec 2.1 / 4.2. Limits the spec leaves open are ours and documented here. */
export const TAG_NAME_MAX = 50;
export const TAG_DESCRIPTION_MAX = 200;
/** Tags per tenant+environment: keeps list/search (done over the whole set) bounded. */
export const MAX_TAGS_PER_TENANT = 10_000;
/** Tags one memory may carry; also the most `tag_ids` one attach call takes. */
export const MAX_TAGS_PER_MEMORY = 100;
/** Batch reads (GraphQL DataLoaders). */
export const MAX_BATCH_IDS = 1000;
/** Ids arrive as strings: a malformed one is simply unknown (404), only absurd lengths are a 400. */
const IdString = (opts: { description?: string } = {}) => T.String({ maxLength: 64, ...opts });

export const TAG_SORTS = ["name", "memory_count", "created_at"] as const;
export type TagSort = (typeof TAG_SORTS)[number];

const Name = T.String({
  minLength: 1,
  maxLength: TAG_NAME_MAX,
  description: "Unique per tenant+environment, compared case-insensitively.",
});
const Color = Nullable(T.String({ pattern: "^#[0-9A-Fa-f]{6}$", description: "#RRGGBB" }));
const Description = Nullable(T.String({ maxLength: TAG_DESCRIPTION_MAX }));

export const Tag = T.Object({
  id: Uuid(),
  name: T.String(),
  color: Nullable(T.String()),
  description: Nullable(T.String()),
  memory_count: T.Integer(),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type Tag = Static<typeof Tag>;

/** How a memory shows its tags. */
export const TagRef = T.Object({ id: Uuid(), name: T.String(), color: Nullable(T.String()) });
export type TagRef = Static<typeof TagRef>;

export const createTag = op({
  subject: "tags.create",
  input: T.Object(
    { name: Name, color: T.Optional(Color), description: T.Optional(Description) },
    { additionalProperties: false },
  ),
  output: Tag,
  scope: "memories:write",
  summary: "Create a tag (name unique per tenant+environment, case-insensitively)",
});

export const getTag = op({
  subject: "tags.get",
  idempotent: true,
  input: T.Object({ id: IdString() }, { additionalProperties: false }),
  output: Tag,
  scope: "memories:read",
  summary: "Get one tag",
});

export const getTags = op({
  subject: "tags.getMany",
  idempotent: true,
  input: T.Object({ ids: T.Array(IdString(), { maxItems: MAX_BATCH_IDS }) }, { additionalProperties: false }),
  output: T.Object({ items: T.Array(Nullable(Tag), { description: "Aligned with `ids`; null where unknown." }) }),
  scope: "memories:read",
  summary: "Get tags by id in one call (batch for DataLoaders)",
});

export const listTags = op({
  subject: "tags.list",
  idempotent: true,
  input: T.Object(
    {
      ...pageInput(50),
      search: T.Optional(T.String({ maxLength: 100, description: "Case-insensitive partial match on the name." })),
      sort: T.Optional(Enum(TAG_SORTS, { default: "name" })),
      order: T.Optional(Enum(ORDERS, { default: "asc" })),
    },
    { additionalProperties: false },
  ),
  output: Page(Tag),
  scope: "memories:read",
  summary: "List tags: search on name, sort by name, memory_count or created_at",
});

export const updateTag = op({
  subject: "tags.update",
  input: T.Object(
    { id: IdString(), name: T.Optional(Name), color: T.Optional(Color), description: T.Optional(Description) },
    { additionalProperties: false },
  ),
  output: Tag,
  scope: "memories:write",
  summary: "Update a tag: only the fields sent change; null removes color or description",
});

export const deleteTag = op({
  subject: "tags.delete",
  input: T.Object({ id: IdString() }, { additionalProperties: false }),
  output: Deleted,
  scope: "memories:write",
  summary: "Delete a tag; it is removed from every memory that carried it (the memories stay)",
});

export const attachTags = op({
  subject: "tags.attach",
  input: T.Object(
    {
      memory_id: IdString(),
      tag_ids: T.Array(IdString(), {
        minItems: 1,
        maxItems: MAX_TAGS_PER_MEMORY,
        description: "Duplicates count once.",
      }),
    },
    { additionalProperties: false },
  ),
  output: T.Object({
    memory_id: Uuid(),
    tags: T.Array(TagRef, { description: "Every tag now attached, sorted by name." }),
    added: T.Integer(),
    skipped: T.Integer(),
  }),
  scope: "memories:write",
  summary: "Attach tags to a memory: all or nothing; already attached ones are skipped",
});

export const detachTag = op({
  subject: "tags.detach",
  input: T.Object({ memory_id: IdString(), tag_id: IdString() }, { additionalProperties: false }),
  output: T.Object({ memory_id: Uuid(), tag_id: Uuid(), removed: T.Boolean() }),
  scope: "memories:write",
  summary: "Detach a tag from a memory (removed: false when it was not attached)",
});

export const tagsOfMemories = op({
  subject: "tags.ofMemories",
  idempotent: true,
  input: T.Object({ memory_ids: T.Array(IdString(), { maxItems: MAX_BATCH_IDS }) }, { additionalProperties: false }),
  output: T.Object({
    items: T.Array(T.Array(TagRef), {
      description: "Aligned with `memory_ids`, each sorted by name; [] where unknown.",
    }),
  }),
  scope: "memories:read",
  summary: "The tags of many memories in one call (batch for memory reads and DataLoaders)",
});
