import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Enum, Nullable, Page, pageInput, Uuid } from "./common";
import { Metadata, withMetadataLimits } from "./metadata";
import { PathId } from "./memories";

/** Entities: the named things memories talk about. `(name, type)` is unique per tenant+env, case-insensitively. */
export const ENTITY_TYPES = ["person", "organization", "place", "product", "event", "concept", "other"] as const;
export const ENTITY_NAME_MAX = 200;
export const ENTITY_DESCRIPTION_MAX = 1000;
export const LINK_MAX_ITEMS = 100;

export const Entity = T.Object({
  id: Uuid(),
  name: T.String(),
  type: Enum(ENTITY_TYPES),
  description: Nullable(T.String()),
  metadata: T.Record(T.String(), T.Unknown()),
  memory_count: T.Integer({ description: "Number of memories linked to the entity." }),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type Entity = Static<typeof Entity>;

const Name = T.String({ minLength: 1, maxLength: ENTITY_NAME_MAX });
const Description = Nullable(T.String({ maxLength: ENTITY_DESCRIPTION_MAX }));
const MemoryIds = (minItems: number) =>
  T.Array(Uuid(), { minItems, maxItems: LINK_MAX_ITEMS, description: "Memory ids; repeated ids count once." });

export const createEntity = withMetadataLimits(
  op({
    subject: "entities.create",
    input: T.Object(
      {
        name: Name,
        type: Enum(ENTITY_TYPES),
        description: T.Optional(Description),
        metadata: T.Optional(Metadata()),
        memory_ids: T.Optional(MemoryIds(0)),
      },
      { additionalProperties: false },
    ),
    output: Entity,
    scope: "memories:write",
    summary: "Create an entity, optionally linked to memories",
  }),
);

export const getEntity = op({
  subject: "entities.get",
  idempotent: true,
  input: T.Object({ id: PathId }, { additionalProperties: false }),
  output: Entity,
  scope: "memories:read",
  summary: "Get one entity",
});

/** Batch reads (GraphQL DataLoaders): one memory page can name many entities. */
export const ENTITY_BATCH_MAX = 1000;

export const getEntities = op({
  subject: "entities.getMany",
  idempotent: true,
  input: T.Object({ ids: T.Array(PathId, { maxItems: ENTITY_BATCH_MAX }) }, { additionalProperties: false }),
  output: T.Object({ items: T.Array(Nullable(Entity), { description: "Aligned with `ids`; null where unknown." }) }),
  scope: "memories:read",
  summary: "Internal (batch loader): entities by id, in the order asked",
});

export const listEntities = op({
  subject: "entities.list",
  idempotent: true,
  input: T.Object(
    {
      ...pageInput(50),
      search: T.Optional(
        T.String({ minLength: 1, maxLength: ENTITY_NAME_MAX, description: "Case-insensitive partial match on name." }),
      ),
      type: T.Optional(Enum(ENTITY_TYPES)),
    },
    { additionalProperties: false },
  ),
  output: Page(Entity),
  scope: "memories:read",
  summary: "List entities, newest first",
});

export const updateEntity = withMetadataLimits(
  op({
    subject: "entities.update",
    input: T.Object(
      {
        id: PathId,
        name: T.Optional(Name),
        type: T.Optional(Enum(ENTITY_TYPES)),
        description: T.Optional(Description),
        metadata: T.Optional(Metadata()),
      },
      { additionalProperties: false },
    ),
    output: Entity,
    scope: "memories:write",
    summary: "Update an entity partially (description: null removes it; metadata is replaced whole)",
  }),
);

export const deleteEntity = op({
  subject: "entities.delete",
  input: T.Object({ id: PathId }, { additionalProperties: false }),
  output: T.Object({ id: Uuid(), deleted: T.Literal(true) }),
  scope: "memories:write",
  summary: "Delete an entity; it is unlinked from every memory, the memories stay",
});

export const linkEntityMemories = op({
  subject: "entities.link",
  input: T.Object({ id: PathId, memory_ids: MemoryIds(1) }, { additionalProperties: false }),
  output: T.Object({ entity_id: Uuid(), added: T.Integer(), skipped: T.Integer(), memory_count: T.Integer() }),
  scope: "memories:write",
  summary: "Link memories to an entity (all or nothing; already linked ones are skipped)",
});

export const unlinkEntityMemory = op({
  subject: "entities.unlink",
  input: T.Object({ id: PathId, memory_id: PathId }, { additionalProperties: false }),
  output: T.Object({ entity_id: Uuid(), memory_id: Uuid(), removed: T.Boolean() }),
  scope: "memories:write",
  summary: "Unlink a memory from an entity (idempotent: removed=false when it was not linked)",
});
