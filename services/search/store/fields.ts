/**
 * Every field name the search index stores, readable name → stored name, in one place. The stored
 * names are short because each indexed memory repeats them; existing indexes hold them, so a stored
 * name never changes (a test pins them). Key names are in keyspace.ts. The Redis functions (../lua/)
 * get DOC and STATS as Lua tables of the same names (luaFieldTables, loaded before common.lua).
 */

/** The hash of one indexed memory, `s:{t:e}:d:<id>`. */
export const DOC = {
  /** The memory's version; 0 when a rebuild indexed it without knowing its version. */
  version: "v",
  /** "1" on a tombstone: the memory is deleted, and `version` is the version that deleted it. */
  deleted: "del",
  /** The embedding model of its vector (which vector set holds it). */
  model: "model",
  /** Hash of the content: the model runs again only when it changes. */
  contentHash: "ch",
  /** Its own term counts, JSON object term → count. */
  termCounts: "tf",
  /** The filter sets it is in, JSON array of suffixes (`tier:short`, `tag:<id>`, …). */
  filterSuffixes: "fk",
  /** Its parent's id, '' for a root. */
  parent: "par",
  /** created_at in ms. */
  createdMs: "ca",
  /** updated_at in ms: a rebuild replaces an indexed memory only with a newer one. */
  updatedMs: "ua",
  /** When it was last written to the index, ms (a rebuild removes only what it did not write). */
  indexedMs: "at",
  /** The previous sibling whose terms are its lexical context, '' for none. */
  previousSibling: "prev",
  /** The terms it has postings under (own and context), JSON array. */
  postingTerms: "post",
  /** Its posting length: own term counts plus the weighted context's. */
  postingLength: "pl",
  /** occurred_at in ms. */
  occurredMs: "oa",
  /** Its member of its parent's thread order (`threadOrderMember`), '' for a root. */
  threadOrder: "to",
  /**
   * How many vectors it has in its model's vector set: one per chunk of its content (embedder/chunks.ts), the
   * first named by its id, the others `<id>#<i>` (lua/common.lua chunk_name). Absent: one.
   */
  vectorCount: "vc",
} as const;

/** The hash `s:{t:e}:stats`. */
export const STATS = {
  /** Σ posting lengths of every indexed memory (avgdl = this / N). */
  postingLengthSum: "len",
  /** Σ over indexed memories of their vectors past the first (chunks): VCARD minus this is how many have one. */
  extraVectors: "xv",
} as const;

/** The hash `s:{t:e}:meta`: the index as a whole. */
export const META = {
  /** The embedding model it was built with. */
  model: "model",
  /** That model's dimensions. */
  dimensions: "dims",
  /** "ready" | "building". */
  state: "state",
  /** When the last rebuild finished, ms (0 while building). */
  builtAt: "built_at",
  /** What the index holds besides the model's vectors (INDEX_LAYOUT): another layout is rebuilt. */
  layout: "layout",
} as const;

/**
 * The index's layout: which keys and fields a complete index holds. An index of a layout this code does not
 * read (or none) is rebuilt by the service, as one of another model is; the change from 2 to 3 is data
 * layout 3's migration. 2: thread order by occurred_at (`o:`
 * sets), occurred_at / valid_to / expires_at indexes, the `latest` filter. 3: a long memory's vectors, one
 * per chunk (DOC.vectorCount).
 */
export const INDEX_LAYOUT = "3";
/**
 * The layout before chunks: written until the keyspace reaches data layout 3 (data-layout/layout.ts), so the
 * release before, which rebuilds any index not of its own layout 2, keeps reading it; the migration to data
 * layout 3 (migrations/) rebuilds every index in INDEX_LAYOUT.
 */
export const WHOLE_INDEX_LAYOUT = "2";
/** The layouts this code reads as they are: any other (or none) is rebuilt when a query meets it. */
export const READ_INDEX_LAYOUTS: readonly string[] = [WHOLE_INDEX_LAYOUT, INDEX_LAYOUT];

/**
 * The attributes (JSON) of a memory's vector in its vector set, what VSIM FILTER expressions test.
 * Written by indexer/document.ts; read by filters/filters.ts.
 */
export const ATTRS = {
  tier: "tier",
  contentType: "ct",
  nature: "nat",
  parent: "parent",
  /** Array of tag ids. */
  tags: "tags",
  /** Array of entity ids. */
  entities: "ents",
  /** Array of metadata tokens (filters/metadata.ts). */
  metadata: "meta",
  /** created_at in ms, for range filters. */
  createdMs: "ca",
  /** occurred_at in ms, for range filters and as_of. */
  occurredMs: "oa",
  /** valid_to in ms (VALID_FOREVER while not superseded), for as_of. */
  validToMs: "vto",
  /** "1" while no memory has superseded it, else "". */
  latest: "lt",
} as const;

/** valid_to of a memory not superseded (the largest time JavaScript can hold): compares after any as_of. */
export const VALID_FOREVER = 8_640_000_000_000_000;

/**
 * A memory's member of its parent's thread-order set (`o:<parent>`, scores all 0): its occurred_at, then
 * created_at (ms, shifted positive and zero-padded to 16 digits, so the text sorts as the numbers), then
 * its id. So siblings sort by occurred_at, then created_at, then id, and the member names the id.
 */
export const THREAD_ORDER_TIME_DIGITS = 16;
const sortable = (ms: number) => String(ms + 1e15).padStart(THREAD_ORDER_TIME_DIGITS, "0");
export const threadOrderMember = (occurredMs: number, createdMs: number, id: string) =>
  `${sortable(occurredMs)}${sortable(createdMs)}${id}`;

/**
 * The filterable fields, in one table so the three places that use them cannot disagree: the kind
 * names the filter sets of the lexical index (`f:<kind>:<value>`, also in DOC.filterSuffixes), `attr`
 * the vector-set attribute, and `many` whether it holds a list (VSIM FILTER `in` rather than `==`).
 */
export const FILTER_KINDS = {
  tier: { attr: ATTRS.tier, many: false },
  ct: { attr: ATTRS.contentType, many: false },
  nat: { attr: ATTRS.nature, many: false },
  parent: { attr: ATTRS.parent, many: false },
  tag: { attr: ATTRS.tags, many: true },
  ent: { attr: ATTRS.entities, many: true },
  meta: { attr: ATTRS.metadata, many: true },
  /** "1": memories no other memory has superseded (`latest_only`). */
  latest: { attr: ATTRS.latest, many: false },
} as const;
export type FilterKind = keyof typeof FILTER_KINDS;

/**
 * DOC and STATS as Lua tables (`DOC.version` = 'v'), so the Redis functions name fields as TypeScript does;
 * and where a thread-order member's id starts (1-based).
 */
export const luaFieldTables = (): string =>
  [
    ...Object.entries({ DOC, STATS }).map(([name, table]) => {
      const fields = Object.entries(table).map(([k, v]) => `${k} = '${v}'`);
      return `local ${name} = { ${fields.join(", ")} }`;
    }),
    `local THREAD_ORDER_ID_AT = ${2 * THREAD_ORDER_TIME_DIGITS + 1}`,
  ].join("\n");
