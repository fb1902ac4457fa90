/**
 * The memory hash (`keyspace().memory(id)`), written by the memories service and read here only: the
 * memories service's own reads and the tags service's event snapshots both come through `readMemoryHash`,
 * so the two services cannot disagree on what a stored memory says.
 */

/** A memory's own fields as the store writes them (`parent` is parent_memory_id). */
export interface MemoryFields {
  content: string;
  content_type: string;
  tier: string;
  memory_nature: string;
  parent: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
}

export interface StoredMemory {
  fields: MemoryFields;
  /** ISO 8601, millisecond precision, UTC. */
  createdAt: string;
  updatedAt: string;
  /** Bumped by every change of the memory or its links; 0 when absent. */
  version: number;
}

/** A flat field/value list (HGETALL's reply) as an object. */
export function hashOfPairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
}

/** Epoch milliseconds (as stored, or a number) → ISO 8601 UTC; absent reads as the epoch. */
export const isoOfMs = (ms: string | number | undefined) => new Date(Number(ms ?? 0)).toISOString();

/**
 * Stored metadata (of a memory or an entity) is a JSON object; anything else reads as `{}`
 * rather than breaking the shape.
 */
export function parseMetadata(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Empty `parent` / `external_id` mean none. */
export function readMemoryHash(h: Record<string, string>): StoredMemory {
  return {
    fields: {
      content: h.content ?? "",
      content_type: h.content_type ?? "",
      tier: h.tier ?? "",
      memory_nature: h.memory_nature ?? "",
      parent: h.parent || null,
      external_id: h.external_id || null,
      metadata: parseMetadata(h.metadata),
    },
    createdAt: isoOfMs(h.created_at),
    updatedAt: isoOfMs(h.updated_at),
    version: Number(h.v ?? 0) || 0,
  };
}
