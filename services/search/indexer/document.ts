import { createHash } from "node:crypto";
import type { MemorySnapshot } from "../../contract/events";
import { chunkChars, DEFAULT_MAX_TOKENS, embeddingChunks, embeddingText } from "../embedder";
import { metadataToken } from "../filters";
import { ATTRS, FILTER_KINDS, threadOrderMember, VALID_FOREVER, type FilterKind, type IndexDoc } from "../store";
import { termFrequencies } from "../text";

export const contentHash = (content: string) => createHash("sha256").update(content).digest("base64url").slice(0, 22);

function fieldValues(s: MemorySnapshot): Record<FilterKind, string[]> {
  return {
    tier: [s.tier],
    ct: [s.content_type],
    nat: [s.memory_nature],
    parent: s.parent_memory_id ? [s.parent_memory_id] : [],
    tag: [...new Set(s.tag_ids)],
    ent: [...new Set(s.entity_ids)],
    meta: Object.entries(s.metadata ?? {}).map(([k, v]) => metadataToken(k, v)),
    latest: s.superseded_by ? [] : ["1"],
  };
}

const msOrNull = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

/**
 * What the index stores of one memory, derived from its snapshot and the model's input length (`maxTokens`:
 * how its content is chunked). `chunked` false writes the index layout before chunks (fields.ts
 * WHOLE_INDEX_LAYOUT: one vector of the content's start), which replicas of the release before read, until the
 * keyspace migrates (data-layout/).
 */
export function toIndexDoc(s: MemorySnapshot, maxTokens = DEFAULT_MAX_TOKENS, chunked = true): IndexDoc {
  const values = fieldValues(s);
  const attrs: Record<string, unknown> = {};
  const filterSuffixes: string[] = [];
  for (const kind of Object.keys(FILTER_KINDS) as FilterKind[]) {
    const field = FILTER_KINDS[kind];
    const vs = values[kind].filter((v) => v !== "");
    attrs[field.attr] = field.many ? vs : (vs[0] ?? "");
    for (const v of vs) filterSuffixes.push(`${kind}:${v}`);
  }
  const createdMs = Date.parse(s.created_at);
  const occurredMs = s.occurred_at ? Date.parse(s.occurred_at) : createdMs;
  const validToMs = msOrNull(s.valid_to);
  attrs[ATTRS.createdMs] = createdMs;
  attrs[ATTRS.occurredMs] = occurredMs;
  attrs[ATTRS.validToMs] = validToMs ?? VALID_FOREVER;
  const { tf, length } = termFrequencies(s.content);
  const chunks = chunked ? embeddingChunks(s.content, maxTokens) : [embeddingText(s.content)];
  return {
    id: s.id,
    version: s.version,
    chunks,
    // A chunked memory's hash names the chunk size too: indexed with another one, it is embedded again.
    contentHash: contentHash(chunks.length > 1 ? `${s.content}\u0000${chunkChars(maxTokens)}` : s.content),
    tf: Object.fromEntries(tf),
    length,
    attrs: JSON.stringify(attrs),
    filterSuffixes,
    parent: s.parent_memory_id ?? "",
    createdMs,
    updatedMs: Date.parse(s.updated_at),
    occurredMs,
    threadOrder: threadOrderMember(occurredMs, createdMs, s.id),
    validToMs,
    expiresMs: msOrNull(s.expires_at),
    ...(chunked ? {} : { whole: true }),
  };
}
