import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Enum, Nullable, Uuid } from "./common";
import { checkingMetadata, Metadata } from "./metadata";
import { CONTENT_MAX_LENGTH, CONTENT_TYPES, EXTERNAL_ID_MAX_LENGTH, MEMORY_NATURES, TIERS } from "./memories";
import { ENTITY_DESCRIPTION_MAX, ENTITY_NAME_MAX, ENTITY_TYPES } from "./entities";
import { MAX_TAGS_PER_MEMORY, TAG_DESCRIPTION_MAX, TAG_NAME_MAX } from "./tags";
import { compileValidator } from "./validation";
import { toServiceError, validationError } from "./errors";

/**
 * A tenant environment's data as NDJSON (`GET /v1/export`, `POST /v1/import`): one typed record per line, tags
 * and entities first, then memories parent before child. Links travel inside a memory record by name (tag
 * names, entity type + name), which are unique per tenant environment, so they survive ids being remapped.
 */

export const TagRecord = T.Object(
  {
    type: T.Literal("tag"),
    id: Uuid(),
    name: T.String({ minLength: 1, maxLength: TAG_NAME_MAX }),
    color: Nullable(T.String({ pattern: "^#[0-9A-Fa-f]{6}$" })),
    description: Nullable(T.String({ maxLength: TAG_DESCRIPTION_MAX })),
    created_at: DateTime(),
  },
  { additionalProperties: false },
);
export type TagRecord = Static<typeof TagRecord>;

export const EntityRecord = T.Object(
  {
    type: T.Literal("entity"),
    id: Uuid(),
    name: T.String({ minLength: 1, maxLength: ENTITY_NAME_MAX }),
    entity_type: Enum(ENTITY_TYPES),
    description: Nullable(T.String({ maxLength: ENTITY_DESCRIPTION_MAX })),
    metadata: Metadata(),
    created_at: DateTime(),
  },
  { additionalProperties: false },
);
export type EntityRecord = Static<typeof EntityRecord>;

export const EntityName = T.Object(
  { type: Enum(ENTITY_TYPES), name: T.String({ minLength: 1, maxLength: ENTITY_NAME_MAX }) },
  { additionalProperties: false },
);

export const MemoryRecord = T.Object(
  {
    type: T.Literal("memory"),
    id: Uuid(),
    content: T.String({ minLength: 1, maxLength: CONTENT_MAX_LENGTH }),
    content_type: Enum(CONTENT_TYPES),
    tier: Enum(TIERS),
    memory_nature: Enum(MEMORY_NATURES),
    parent_memory_id: Nullable(Uuid({ description: "A memory of an earlier line (or already imported)." })),
    external_id: Nullable(T.String({ minLength: 1, maxLength: EXTERNAL_ID_MAX_LENGTH })),
    metadata: Metadata(),
    tags: T.Array(T.String({ minLength: 1, maxLength: TAG_NAME_MAX }), {
      maxItems: MAX_TAGS_PER_MEMORY,
      description: "Names of the tags it carries.",
    }),
    entities: T.Array(EntityName, { maxItems: 1000, description: "The entities it is linked to." }),
    created_at: DateTime({ description: "Kept by an import." }),
    updated_at: DateTime({ description: "Not kept: an import sets it to the time of the import." }),
    occurred_at: DateTime(),
    expires_at: Nullable(DateTime()),
    supersedes: Nullable(Uuid({ description: "Kept when the memory it names was imported before it." })),
    superseded_by: Nullable(Uuid({ description: "Follows from the later memory's `supersedes`." })),
    valid_to: Nullable(DateTime()),
  },
  { additionalProperties: false },
);
export type MemoryRecord = Static<typeof MemoryRecord>;

/** Where an export resumes; its last line carries `cursor: null` and the counts of what it wrote. */
export const CursorRecord = T.Object({
  type: T.Literal("cursor"),
  cursor: Nullable(T.String({ description: "Pass as `cursor` to continue after the lines above." })),
});
export const EndRecord = T.Object({
  type: T.Literal("end"),
  counts: T.Object({ tags: T.Integer(), entities: T.Integer(), memories: T.Integer() }),
});

export type ExportRecord = TagRecord | EntityRecord | MemoryRecord;

/** Records one export page holds at most (one page is one NATS answer). */
export const EXPORT_PAGE_MAX = 1000;
const CURSOR_MAX = 16_384;

export const exportPage = op({
  subject: "portability.export",
  idempotent: true,
  input: T.Object(
    {
      cursor: T.Optional(T.String({ minLength: 1, maxLength: CURSOR_MAX, description: "Absent: from the start." })),
      limit: T.Optional(T.Integer({ minimum: 1, maximum: EXPORT_PAGE_MAX, default: EXPORT_PAGE_MAX })),
    },
    { additionalProperties: false },
  ),
  output: T.Object({
    records: T.Array(T.Union([TagRecord, EntityRecord, MemoryRecord])),
    cursor: Nullable(T.String({ description: "null: the export is complete." })),
  }),
  scope: "admin",
  summary: "One page of the tenant environment's data in export order (GET /v1/export streams the pages)",
});

/** How an imported line ended. `exists`: it was there already (same external_id, name or id), nothing written. */
export const IMPORT_STATUSES = ["created", "exists", "failed"] as const;
export const LineResult = T.Object({
  line: T.Integer(),
  status: Enum(IMPORT_STATUSES),
  id: T.Optional(Uuid({ description: "The id it has in this tenant environment." })),
  error: T.Optional(
    T.Object({ code: T.String(), message: T.String(), details: T.Optional(T.Record(T.String(), T.Unknown())) }),
  ),
});
export type LineResult = Static<typeof LineResult>;

/** Lines one import call takes: the gateway cuts a streamed body into chunks this size. */
export const IMPORT_CHUNK_MAX = 500;
/**
 * Lines as the file holds them, each checked by the service against its record's schema (RECORD_VALIDATORS), so a
 * bad line fails alone and each line is checked once.
 */
const Lines = T.Array(
  T.Object({
    line: T.Integer({ minimum: 1 }),
    record: T.Unknown({ description: "A TagRecord, EntityRecord or MemoryRecord (by `type`)." }),
  }),
  { maxItems: IMPORT_CHUNK_MAX },
);

export const importTags = op({
  subject: "tags.import",
  input: T.Object({ lines: Lines }, { additionalProperties: false }),
  output: T.Object({ results: T.Array(LineResult) }),
  scope: "admin",
  summary: "Internal (POST /v1/import): tags by name; a name that exists is reported, not changed",
});

export const importRecords = op({
  subject: "memories.import",
  input: T.Object({ lines: Lines }, { additionalProperties: false }),
  output: T.Object({ results: T.Array(LineResult) }),
  scope: "admin",
  summary: "Internal (POST /v1/import): entities and memories, in order, through the same create as the API",
});

export const ImportReport = T.Object({
  lines: T.Integer({ description: "Lines read, blank ones excepted." }),
  created: T.Object({ tags: T.Integer(), entities: T.Integer(), memories: T.Integer() }),
  existing: T.Object({ tags: T.Integer(), entities: T.Integer(), memories: T.Integer() }),
  failed: T.Integer(),
  errors: T.Array(T.Object({ line: T.Integer(), code: T.String(), message: T.String(), details: T.Unknown() }), {
    description: "Failed lines (and notes on lines that went in), by line number; at most 1000.",
  }),
});
export type ImportReport = Static<typeof ImportReport>;

/**
 * The check of each record type a line may hold, run line by line so one bad line fails alone: its schema, then
 * the metadata limits of `POST /v1/memories` and `/v1/entities` (the same function as theirs), so a line is held
 * to the API's rules and refused with the API's details.
 */
const RECORDS = { tag: TagRecord, entity: EntityRecord, memory: MemoryRecord } as const;
export const RECORD_VALIDATORS = {
  tag: compileValidator(TagRecord),
  entity: checkingMetadata(compileValidator(EntityRecord)),
  memory: checkingMetadata(compileValidator(MemoryRecord)),
} as const;
export type RecordType = keyof typeof RECORD_VALIDATORS;

/**
 * Each line's record checked against its type's schema: the valid ones, and a failed LineResult (with the
 * `details` the API gives for the same fault) for each other one, in `failed`.
 */
export function checkLines<K extends RecordType>(
  lines: { line: number; record: unknown }[],
  types: readonly K[],
): { valid: { line: number; record: Static<(typeof RECORDS)[K]> }[]; failed: LineResult[] } {
  const valid: { line: number; record: Static<(typeof RECORDS)[K]> }[] = [];
  const failed: LineResult[] = [];
  for (const { line, record } of lines) {
    const type = (record as { type?: unknown } | null)?.type as K;
    try {
      if (!types.includes(type)) throw validationError("type", "enum", `type must be one of: ${types.join(", ")}`);
      valid.push({ line, record: RECORD_VALIDATORS[type](record) as Static<(typeof RECORDS)[K]> });
    } catch (err) {
      const e = toServiceError(err);
      failed.push({ line, status: "failed", error: { code: e.code, message: e.message, details: e.details ?? {} } });
    }
  }
  return { valid, failed };
}
