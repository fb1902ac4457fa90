import { notFound } from "../../contract/errors";
import { MAX_HIERARCHY_DEPTH, MEMORY_LINK_FIELDS, type Memory } from "../../contract/memories";
import type { Restriction } from "../../contract/op";
import type { Space } from "../../kit/space";
import type { MemoryRow } from "../store/record";
import type { MemoryFilter, MemoryStore } from "../store";
import { restrictedWrites } from "./restriction-writes";

/** Memories a restricted list reads from the store per step. */
const SCAN_PAGE = 500;

/**
 * A browser token's restriction (services/contract/tokens.ts), enforced by the memories service, the one
 * place its memories are read and written: a memory is inside when its metadata holds every restricted
 * key's value, it carries one of the restricted tags, and it is the restricted root or below it. Outside
 * memories do not exist for the token (404, null, left out, and never named by a memory it reads); writes
 * keep memories inside and change no memory outside (restriction-writes.ts).
 */
export { restrictionOf } from "../../kit/handler";

/** What needs no other memory: metadata and tags. */
function matchesOwnFields(m: Memory, r: Restriction): boolean {
  for (const [key, value] of Object.entries(r.metadata ?? {})) if (m.metadata[key] !== value) return false;
  if (r.tag_ids && !m.tags.some((t) => r.tag_ids!.includes(t.id))) return false;
  return true;
}

export function restrictionChecks(store: MemoryStore) {
  /**
   * Whether `m` is inside `r`; a subtree costs one ancestors read, unless `inSubtree` says `m` is known to be
   * in it (the parent of a memory of the subtree other than its root).
   */
  async function inside(space: Space, m: Memory, r: Restriction, inSubtree = false): Promise<boolean> {
    if (!matchesOwnFields(m, r)) return false;
    const root = r.root_memory_id;
    if (!root || m.id === root || inSubtree) return true;
    if (!m.parent_memory_id) return false;
    return ((await store.ancestors(space, m.id, MAX_HIERARCHY_DEPTH)) ?? []).includes(root);
  }

  /** The rows inside `r`, in order (null where a row is missing or outside); their links as they are. */
  async function keep<R extends MemoryRow | null>(space: Space, rows: R[], r: Restriction) {
    const kept = await Promise.all(rows.map((row) => (row ? inside(space, row.memory, r) : false)));
    return rows.map((row, i) => (kept[i] ? row : null));
  }

  /**
   * Rows inside `r` as the token sees them: a parent, a memory replaced or replacing that is outside (or gone)
   * reads as none, as if it did not exist (`valid_to` goes with `superseded_by`). The links' memories are read
   * once for all rows.
   */
  async function redact<R extends MemoryRow | null>(space: Space, rows: R[], r: Restriction): Promise<R[]> {
    const known = new Map<string, boolean>();
    for (const row of rows) if (row) known.set(row.memory.id, true);
    // A link id → whether its memory is the parent of a memory of the subtree other than its root.
    const linked = new Map<string, boolean>();
    for (const row of rows) {
      if (!row) continue;
      const { id, parent_memory_id: parent, supersedes, superseded_by } = row.memory;
      if (parent && !known.has(parent)) linked.set(parent, (linked.get(parent) ?? false) || id !== r.root_memory_id);
      for (const other of [supersedes, superseded_by])
        if (other && !known.has(other) && !linked.has(other)) linked.set(other, false);
    }
    const ids = [...linked.keys()];
    const found = await store.getMemories(space, ids);
    const ok = await Promise.all(found.map((f, i) => (f ? inside(space, f.memory, r, linked.get(ids[i]!)) : false)));
    ids.forEach((id, i) => known.set(id, ok[i]!));
    const hidden = (id: string | null) => id !== null && known.get(id) !== true;
    return rows.map((row) => {
      if (!row) return row;
      const m = row.memory;
      return MEMORY_LINK_FIELDS.some(([field]) => hidden(m[field])) ? hide(row, hidden) : row;
    });
  }

  /** The rows inside `r` as it shows them (null where a row is missing or outside); all of them without one. */
  async function visible<R extends MemoryRow | null>(space: Space, rows: R[], r: Restriction | null) {
    if (!r) return rows;
    return redact(space, await keep(space, rows, r), r);
  }

  /** The memory by id when it exists and is inside `r`, links as they are; else 404, as for an unknown id. */
  async function reachable(space: Space, id: string, r: Restriction): Promise<MemoryRow> {
    const [row] = await store.getMemories(space, [id]);
    if (!row || !(await inside(space, row.memory, r))) throw notFound("Memory");
    return row;
  }

  return {
    visible,
    /** The rows inside `r`, for an answer that shows none of them (their ids at most): no links redacted. */
    keep,
    /** The memory by id as `r` shows it when it exists and is inside it; else 404, as for an unknown id. */
    async readable(space: Space, id: string, r: Restriction | null): Promise<MemoryRow> {
      if (!r) {
        const [row] = await store.getMemories(space, [id]);
        if (!row) throw notFound("Memory");
        return row;
      }
      return (await redact(space, [await reachable(space, id, r)], r))[0]!;
    },
    /** A row a write answers, as `r` shows it. */
    async shown(space: Space, row: MemoryRow, r: Restriction | null): Promise<MemoryRow> {
      return r ? (await redact(space, [row], r))[0]! : row;
    },
    /**
     * Memories a request names under `r` (a link's, the one a walk starts from): each inside it, else 404 as for
     * an unknown one. Nothing is shown, so their links are not redacted.
     */
    async mustReach(space: Space, r: Restriction | null, ids: string[]): Promise<void> {
      if (!r) return;
      const rows = await keep(space, await store.getMemories(space, ids), r);
      if (rows.some((row) => !row)) throw notFound("Memory");
    },
    /**
     * A page of the list under `r`, with an exact total: the memories matching the filters are walked in
     * store order and those inside kept (a restriction is not an index). One restricted tag narrows the walk.
     */
    async list(
      space: Space,
      r: Restriction,
      q: MemoryFilter & { limit: number; offset: number; sort: "created_at" | "updated_at" | "occurred_at" },
    ) {
      const tagIds = r.tag_ids?.length === 1 ? [...new Set([...(q.tag_id ?? []), r.tag_ids[0]!])] : q.tag_id;
      const rowsInside: MemoryRow[] = [];
      for (let offset = 0; ; offset += SCAN_PAGE) {
        const { total, rows } = await store.listMemories(space, { ...q, tag_id: tagIds, offset, limit: SCAN_PAGE });
        for (const row of await keep(space, rows, r)) if (row) rowsInside.push(row);
        if (rows.length === 0 || offset + rows.length >= total) break;
      }
      return { total: rowsInside.length, rows: await redact(space, rowsInside.slice(q.offset, q.offset + q.limit), r) };
    },
    ...restrictedWrites(store, inside, reachable),
  };
}

/** `row` with its `hidden` links read as none. */
function hide<R extends MemoryRow>(row: R, hidden: (id: string | null) => boolean): R {
  const m: Record<string, unknown> = { ...row.memory };
  for (const [field, along] of MEMORY_LINK_FIELDS)
    if (hidden(row.memory[field])) for (const f of [field, ...along]) m[f] = null;
  return { ...row, memory: m as Memory };
}

export type RestrictionChecks = ReturnType<typeof restrictionChecks>;
