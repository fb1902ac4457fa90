import { ServiceError, notFound } from "../contract/errors";
import { MAX_HIERARCHY_DEPTH, type Memory } from "../contract/memories";
import type { Restriction } from "../contract/op";
import type { Space } from "../kit/space";
import type { MemoryRow } from "./record";
import type { MemoryFilter, MemoryStore } from "./store";

/** Memories a restricted list reads from the store per step. */
const SCAN_PAGE = 500;

/**
 * A browser token's restriction (services/contract/tokens.ts), enforced by the memories service, the one
 * place its memories are read and written: a memory is inside when its metadata holds every restricted
 * key's value, it carries one of the restricted tags, and it is the restricted root or below it. Outside
 * memories do not exist for the token (404, null, left out); writes keep memories inside.
 */
export { restrictionOf } from "../kit/handler";

const forbidden = (message: string, field: string) =>
  new ServiceError("FORBIDDEN", message, { field, constraint: "token_restriction" });

/** What needs no other memory: metadata and tags. */
function matchesOwnFields(m: Memory, r: Restriction): boolean {
  for (const [key, value] of Object.entries(r.metadata ?? {})) if (m.metadata[key] !== value) return false;
  if (r.tag_ids && !m.tags.some((t) => r.tag_ids!.includes(t.id))) return false;
  return true;
}

export function restrictionChecks(store: MemoryStore) {
  /** Whether `m` is inside `r`; a subtree costs one ancestors read. */
  async function inside(space: Space, m: Memory, r: Restriction): Promise<boolean> {
    if (!matchesOwnFields(m, r)) return false;
    const root = r.root_memory_id;
    if (!root || m.id === root) return true;
    if (!m.parent_memory_id) return false;
    return ((await store.ancestors(space, m.id, MAX_HIERARCHY_DEPTH)) ?? []).includes(root);
  }

  /** The rows inside `r`, in order (null where a row is missing or outside). */
  async function visible<R extends MemoryRow | null>(space: Space, rows: R[], r: Restriction | null) {
    if (!r) return rows;
    const keep = await Promise.all(rows.map((row) => (row ? inside(space, row.memory, r) : false)));
    return rows.map((row, i) => (keep[i] ? row : null));
  }

  /** The memory by id when it exists and is inside `r`; else 404, as for an unknown id. */
  async function readable(space: Space, id: string, r: Restriction | null): Promise<MemoryRow> {
    const [row] = await store.getMemories(space, [id]);
    if (!row || (r && !(await inside(space, row.memory, r)))) throw notFound("Memory");
    return row;
  }

  /**
   * The metadata a write under `r` stores: the restricted values set, a different value for one of them
   * refused. A memory so written stays inside on metadata.
   */
  function restrictedMetadata(metadata: Record<string, unknown>, r: Restriction): Record<string, unknown> {
    for (const [key, value] of Object.entries(r.metadata ?? {})) {
      if (key in metadata && metadata[key] !== value)
        throw forbidden(`This token writes only memories with metadata.${key} = ${JSON.stringify(value)}`, "metadata");
    }
    return { ...metadata, ...r.metadata };
  }

  /** A parent (or a memory replaced) under `r` must be inside it; with a subtree, a new memory needs a parent. */
  async function checkParent(space: Space, parent: string | null | undefined, r: Restriction, self?: string) {
    if (parent === undefined) return;
    if (parent === null) {
      if (r.root_memory_id && self !== r.root_memory_id)
        throw forbidden("This token writes only below its root memory: give a parent_memory_id", "parent_memory_id");
      return;
    }
    const [row] = await store.getMemories(space, [parent]);
    if (!row || !(await inside(space, row.memory, r)))
      throw forbidden("The parent memory is outside what this token may reach", "parent_memory_id");
  }

  return {
    visible,
    readable,
    /** Memories a link (entities, tags) touches under `r`: each inside it, else 404 as for an unknown one. */
    async linkable(space: Space, r: Restriction | null, ids: string[]): Promise<void> {
      if (!r) return;
      const rows = await visible(space, await store.getMemories(space, ids), r);
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
      const inside: MemoryRow[] = [];
      for (let offset = 0; ; offset += SCAN_PAGE) {
        const { total, rows } = await store.listMemories(space, { ...q, tag_id: tagIds, offset, limit: SCAN_PAGE });
        for (const row of await visible(space, rows, r)) if (row) inside.push(row);
        if (rows.length === 0 || offset + rows.length >= total) break;
      }
      return { total: inside.length, rows: inside.slice(q.offset, q.offset + q.limit) };
    },
    /** A create's fields under `r`: metadata set, parent and `supersedes` inside. Tags cannot be set here. */
    async forCreate(
      space: Space,
      r: Restriction | null,
      f: { metadata: Record<string, unknown>; parent: string | null; supersedes?: string },
    ) {
      if (!r) return f.metadata;
      if (r.tag_ids)
        throw forbidden("A token restricted to tags cannot create memories (a new memory carries no tag)", "tag_ids");
      await checkParent(space, f.parent, r);
      if (f.supersedes) {
        const [row] = await store.getMemories(space, [f.supersedes]);
        if (row && !(await inside(space, row.memory, r)))
          throw forbidden("The memory to supersede is outside what this token may reach", "supersedes");
      }
      return restrictedMetadata(f.metadata, r);
    },
    /** A patch under `r`: the memory inside, and it stays inside (metadata kept, a new parent inside). */
    async forUpdate(
      space: Space,
      r: Restriction | null,
      id: string,
      patch: { metadata?: Record<string, unknown>; parent?: string | null },
    ) {
      if (!r) return patch.metadata;
      await readable(space, id, r);
      await checkParent(space, patch.parent, r, id);
      return patch.metadata && restrictedMetadata(patch.metadata, r);
    },
    /** A delete under `r`: the memory inside; a cascade only when the subtree alone restricts (all of it is inside). */
    async forDelete(space: Space, r: Restriction | null, id: string, cascade: boolean) {
      if (!r) return;
      await readable(space, id, r);
      if (cascade && (r.metadata || r.tag_ids))
        throw forbidden(
          "This token cannot delete with cascade: the subtree may hold memories it cannot reach",
          "cascade",
        );
    },
  };
}

export type RestrictionChecks = ReturnType<typeof restrictionChecks>;
