import { createHash } from "node:crypto";
import type { MemorySnapshot } from "../contract/events";
import { CREATED_ATTR, FIELD_KINDS, metadataToken, type FieldKind } from "./fields";
import { termFrequencies } from "./text/tokenize";

/** What the index stores of one memory, derived from its snapshot only. */
export interface IndexDoc {
  id: string;
  version: number;
  /** The text given to the embedder (see `embeddingText`). */
  text: string;
  contentHash: string;
  /** Own term counts (the lexical context of the next sibling is added by the store). */
  tf: Record<string, number>;
  length: number;
  /** Vector-set attributes (JSON): the filterable fields. */
  attrs: string;
  /** Filter-set suffixes this memory belongs to. */
  filterSuffixes: string[];
  parent: string;
  createdMs: number;
  updatedMs: number;
}

/**
 * USE-lite's cost grows with the text and its meaning is dominated by the start; the lexical index
 * covers the whole content. An empty string crashes the model, so blank content embeds a placeholder.
 */
export const EMBED_MAX_CHARS = 2000;
export const embeddingText = (content: string) => content.trim().slice(0, EMBED_MAX_CHARS) || "(empty)";

export const contentHash = (content: string) => createHash("sha256").update(content).digest("base64url").slice(0, 22);

function fieldValues(s: MemorySnapshot): Record<FieldKind, string[]> {
  return {
    tier: [s.tier],
    ct: [s.content_type],
    nat: [s.memory_nature],
    parent: s.parent_memory_id ? [s.parent_memory_id] : [],
    tag: [...new Set(s.tag_ids)],
    ent: [...new Set(s.entity_ids)],
    meta: Object.entries(s.metadata ?? {}).map(([k, v]) => metadataToken(k, v)),
  };
}

export function toIndexDoc(s: MemorySnapshot): IndexDoc {
  const values = fieldValues(s);
  const attrs: Record<string, unknown> = {};
  const filterSuffixes: string[] = [];
  for (const kind of Object.keys(FIELD_KINDS) as FieldKind[]) {
    const field = FIELD_KINDS[kind];
    const vs = values[kind].filter((v) => v !== "");
    attrs[field.attr] = field.many ? vs : (vs[0] ?? "");
    for (const v of vs) filterSuffixes.push(`${kind}:${v}`);
  }
  const createdMs = Date.parse(s.created_at);
  attrs[CREATED_ATTR] = createdMs;
  const { tf, length } = termFrequencies(s.content);
  return {
    id: s.id,
    version: s.version,
    text: embeddingText(s.content),
    contentHash: contentHash(s.content),
    tf: Object.fromEntries(tf),
    length,
    attrs: JSON.stringify(attrs),
    filterSuffixes,
    parent: s.parent_memory_id ?? "",
    createdMs,
    updatedMs: Date.parse(s.updated_at),
  };
}
