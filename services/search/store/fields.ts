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
} as const;

/** The hash `s:{t:e}:stats`. */
export const STATS = {
  /** Σ posting lengths of every indexed memory (avgdl = this / N). */
  postingLengthSum: "len",
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
} as const;

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
} as const;

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
} as const;
export type FilterKind = keyof typeof FILTER_KINDS;

/** DOC and STATS as Lua tables (`DOC.version` = 'v'), so the Redis functions name fields as TypeScript does. */
export const luaFieldTables = (): string =>
  Object.entries({ DOC, STATS })
    .map(([name, table]) => {
      const fields = Object.entries(table).map(([k, v]) => `${k} = '${v}'`);
      return `local ${name} = { ${fields.join(", ")} }`;
    })
    .join("\n");
