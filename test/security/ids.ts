/**
 * The id arguments an operation can take, as one object: every table of calls (REST, GraphQL, MCP, streams)
 * builds its request from one `Ids`, so the tests can point each argument at another tenant's thing, at
 * user B's thing, or at nothing, and compare the answers.
 */
export interface Ids {
  /** The memory an operation acts on (a path id, a parent, a link end). */
  memory: string;
  /** A second memory: the one a new memory supersedes, a patch's new parent. Optional everywhere. */
  other?: string;
  tag: string;
  /** A tag's name, for the MCP tools that name tags. */
  tagName: string;
  entity: string;
  /** An external id a create claims, or a list filters on. Optional everywhere. */
  external?: string;
  webhook: string;
  delivery: string;
  key: string;
  tenant: string;
}

export const ID_FIELDS = [
  "memory",
  "other",
  "tag",
  "tagName",
  "entity",
  "external",
  "webhook",
  "delivery",
  "key",
  "tenant",
] as const satisfies readonly (keyof Ids)[];

/**
 * The arguments every table treats as optional (absent when undefined): a case testing one argument leaves them
 * out, so the operation's first refusal is about that argument and not about another.
 */
export const OPTIONAL_FIELDS = ["other", "external"] as const satisfies readonly (keyof Ids)[];

/** Ids without the optional arguments. */
export const bare = (ids: Ids): Ids => ({ ...ids, other: undefined, external: undefined });

/** The arguments that name a memory of user B, whose answer must read as if that memory did not exist. */
export const MEMORY_FIELDS = ["memory", "other", "external"] as const satisfies readonly (keyof Ids)[];

const short = () => crypto.randomUUID().slice(0, 8);

/** Ids that name nothing anywhere: what an outside id must answer like. */
export function unknownIds(): Required<Ids> {
  return {
    memory: crypto.randomUUID(),
    other: crypto.randomUUID(),
    tag: crypto.randomUUID(),
    tagName: `tag-new-${short()}`,
    entity: crypto.randomUUID(),
    external: `ext-unknown-${short()}`,
    webhook: crypto.randomUUID(),
    delivery: crypto.randomUUID(),
    key: crypto.randomUUID(),
    tenant: `tunknown${short()}`,
  };
}

/** A fresh, unused value for names that must be unique per call (tags, entities, external ids). */
export const unique = (prefix: string) => `${prefix}-${short()}`;
