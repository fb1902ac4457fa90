import { rowOfCreateReply, parseMemory, type CreatedReply, type MemoryFields, type MemoryRow } from "../store/record";

/** A memory to create as the create functions take it (lua/create-memory.lua), and the row of their answer. */

/** How a new memory's life is asked for (life.lua new_life); times ISO 8601. */
export interface NewLife {
  occurred_at?: string;
  /** null = never; absent = `ttl_seconds`, else the tier's retention default. */
  expires_at?: string | null;
  ttl_seconds?: number;
  supersedes?: string;
  /**
   * The latest memory of the `supersedes` chain as a restricted caller's check found it: the create is refused
   * if the chain ends elsewhere when it runs, so the memory it modifies is the one checked.
   */
  supersedes_head?: string;
  /** An import's: the creation time it keeps (an instant to come is taken as now). */
  created_at?: string;
  /**
   * An import's: a memory imported before it that replaces it (its `supersedes` was passed over, as this one was
   * not there yet). It is linked unless it already replaces another or is gone.
   */
  superseded_by?: string;
}

/** Epoch milliseconds of an ISO 8601 instant, as the functions take times. */
export const msOf = (iso: string) => String(Date.parse(iso));

/** A memory to create: its id, fields and life. */
export interface MemoryDraft {
  id: string;
  fields: MemoryFields;
  life: NewLife;
}

/**
 * A memory just created; `superseded`: the memory it replaced (now marked so), if any; `replacedBy`: the memory,
 * imported before it, that an import found replacing it (now naming it in `supersedes`), if any.
 */
export type Created = MemoryRow & { superseded?: MemoryRow; replacedBy?: MemoryRow };

/** create_memory's fields of one memory (lua/create-memory.lua). */
export function createArgs({ id, fields: f, life }: MemoryDraft): string[] {
  const spec: Record<string, unknown> = {};
  if (life.occurred_at !== undefined) spec.occurred_at = msOf(life.occurred_at);
  if (life.expires_at !== undefined) spec.expires_at = life.expires_at === null ? null : msOf(life.expires_at);
  if (life.ttl_seconds !== undefined) spec.ttl_ms = life.ttl_seconds * 1000;
  if (life.supersedes !== undefined) spec.supersedes = life.supersedes;
  if (life.supersedes_head !== undefined) spec.supersedes_head = life.supersedes_head;
  if (life.created_at !== undefined) spec.created_at = msOf(life.created_at);
  if (life.superseded_by !== undefined) spec.superseded_by = life.superseded_by;
  const { content, content_type, tier, memory_nature } = f;
  const ext = f.external_id ?? "";
  return [
    id,
    content,
    content_type,
    tier,
    memory_nature,
    f.parent ?? "",
    ext,
    JSON.stringify(f.metadata),
    JSON.stringify(spec),
  ];
}

/** The row of a memory from create_memory's answer. */
export function createdRow({ id, fields }: MemoryDraft, reply: CreatedReply): Created {
  const superseded = parseMemory(reply[5]);
  const replacedBy = parseMemory(reply[6]);
  const row: Created = rowOfCreateReply(id, fields, reply, replacedBy ?? undefined);
  if (superseded) row.superseded = superseded;
  if (replacedBy) row.replacedBy = replacedBy;
  return row;
}
