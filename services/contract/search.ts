import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Enum, Nullable, Uuid } from "./common";
import { CONTENT_TYPES, MEMORY_NATURES, Memory, SIBLINGS_MAX, TIERS } from "./memories";
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH, withMetadataLimits } from "./metadata";

/** `query: "*"` matches every memory (newest first); filters still apply. */
export const MATCH_ALL = "*";
export const SEARCH_LIMIT_MAX = 100;
export const QUERY_MAX_LENGTH = 4000;
export const FILTER_TAGS_MAX = 100;
export const FILTER_METADATA_KEYS_MAX = 20;
export const CONTEXT_MAX_TOKENS = 32_000;
export const CONTEXT_NEIGHBORS_MAX = SIBLINGS_MAX;
export const TAGS_MATCH = ["any", "all"] as const;
export const CONTEXT_FORMATS = ["text", "markdown"] as const;
export const CONTEXT_ROLES = ["match", "ancestor", "neighbor"] as const;

const Query = T.String({
  minLength: 1,
  maxLength: QUERY_MAX_LENGTH,
  description: 'Search text; "*" matches every memory, newest first.',
});

/** Filters shared by search and context; a memory must pass all of the ones given. */
const Filters = {
  threshold: T.Optional(
    T.Number({
      minimum: 0,
      maximum: 1,
      default: 0,
      description: "Minimum `score` (0..1); 0 keeps the top `limit` whatever their score.",
    }),
  ),
  tier: T.Optional(Enum(TIERS)),
  tags: T.Optional(
    T.Array(Uuid(), {
      maxItems: FILTER_TAGS_MAX,
      description: "Tag ids; unknown ids match nothing. An empty list is no filter.",
    }),
  ),
  tags_match: T.Optional(
    Enum(TAGS_MATCH, { default: "any", description: "any: carries at least one of `tags`; all: carries every one." }),
  ),
  content_type: T.Optional(Enum(CONTENT_TYPES)),
  memory_nature: T.Optional(Enum(MEMORY_NATURES)),
  parent_memory_id: T.Optional(Uuid({ description: "Only the children of this memory." })),
  entity_id: T.Optional(Uuid({ description: "Only memories linked to this entity." })),
  created_after: T.Optional(DateTime({ description: "created_at >= this instant." })),
  created_before: T.Optional(DateTime({ description: "created_at < this instant." })),
  occurred_after: T.Optional(DateTime({ description: "occurred_at >= this instant." })),
  occurred_before: T.Optional(DateTime({ description: "occurred_at < this instant." })),
  latest_only: T.Optional(T.Boolean({ default: false, description: "Only memories no other memory has superseded." })),
  as_of: T.Optional(
    DateTime({
      description: "Only memories valid then: occurred_at <= as_of, and not yet superseded (valid_to > as_of).",
    }),
  ),
  metadata: T.Optional(
    T.Record(T.String({ minLength: 1, maxLength: 200 }), T.Unknown(), {
      maxProperties: FILTER_METADATA_KEYS_MAX,
      description:
        "Equality on top-level metadata keys (any JSON value, compared exactly); all must match. " +
        `A memory's metadata limits apply (${METADATA_MAX_DEPTH} levels, ${METADATA_MAX_BYTES} bytes, ` +
        "no reserved key): a filter beyond them could match nothing.",
    }),
  ),
};

export const SearchInput = T.Object(
  {
    query: Query,
    limit: T.Optional(T.Integer({ minimum: 1, maximum: SEARCH_LIMIT_MAX, default: 10 })),
    ...Filters,
  },
  { additionalProperties: false },
);
export type SearchInput = Static<typeof SearchInput>;

export const Scores = T.Object(
  {
    semantic: Nullable(T.Number({ description: "Cosine similarity of query and memory, floored at 0." })),
    lexical: Nullable(T.Number({ description: "BM25 over Σ idf of the query terms, capped at 1." })),
    thread: Nullable(T.Number({ description: "Best match score of the memory's neighbours in its thread." })),
    entity: Nullable(
      T.Number({
        description:
          "Share of the query's names (capitalised words past its first) the memory's terms hold; " +
          "null when the query names none.",
      }),
    ),
  },
  { description: 'The parts of `score` (null for "*"); the formula is in docs/search.md.' },
);

export const SearchResult = T.Composite([
  Memory,
  T.Object({ score: T.Number({ minimum: 0, maximum: 1 }), scores: Scores }),
]);
export type SearchResult = Static<typeof SearchResult>;

// The metadata filter obeys stored metadata's limits: bounded work for every service that reads it.
export const searchMemories = withMetadataLimits(
  op({
    subject: "search.query",
    idempotent: true,
    input: SearchInput,
    output: T.Object({ results: T.Array(SearchResult) }),
    scope: "search:read",
    summary: "Hybrid search (semantic + BM25, thread-aware) over the tenant's memories, with filters",
  }),
);

export const ContextInput = T.Object(
  {
    query: Query,
    max_tokens: T.Optional(T.Integer({ minimum: 1, maximum: CONTEXT_MAX_TOKENS, default: 2000 })),
    limit: T.Optional(
      T.Integer({ minimum: 1, maximum: SEARCH_LIMIT_MAX, default: 20, description: "Most matches considered." }),
    ),
    include_ancestors: T.Optional(
      T.Boolean({ default: true, description: "Add the parents up to the thread root of each match." }),
    ),
    neighbors: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: CONTEXT_NEIGHBORS_MAX,
        default: 1,
        description: "Siblings before and after each match.",
      }),
    ),
    format: T.Optional(Enum(CONTEXT_FORMATS, { default: "text" })),
    ...Filters,
  },
  { additionalProperties: false },
);
export type ContextInput = Static<typeof ContextInput>;

export const ContextMemory = T.Composite([
  Memory,
  T.Object({ role: Enum(CONTEXT_ROLES), score: Nullable(T.Number({ description: "For matches." })) }),
]);
export type ContextMemory = Static<typeof ContextMemory>;

export const Omitted = T.Object({ id: Uuid(), role: Enum(CONTEXT_ROLES), score: Nullable(T.Number()) });

export const ContextOutput = T.Object({
  context: T.String({
    description: "Grouped by thread, chronological inside a thread, each memory once with its date.",
  }),
  memories: T.Array(ContextMemory, { description: "The memories in `context`." }),
  token_count: T.Integer({ description: "Tokens of `context` (o200k_base, as gpt-tokenizer counts them)." }),
  truncated: T.Boolean({ description: "True when something did not fit in max_tokens." }),
  omitted: T.Array(Omitted, { description: "What did not fit, lowest match scores dropped first." }),
});
export type ContextOutput = Static<typeof ContextOutput>;

export const buildContext = withMetadataLimits(
  op({
    subject: "search.context",
    idempotent: true,
    input: ContextInput,
    output: ContextOutput,
    scope: "search:read",
    summary: "The memories an LLM should see for a query, assembled by thread within a token budget",
  }),
);
