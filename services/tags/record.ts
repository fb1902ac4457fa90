import type { Tag, TagRef, TagSort } from "../contract/tags";
import { foldName } from "../memory-data/keyspace";

const iso = (ms: string | undefined) => new Date(Number(ms ?? 0)).toISOString();

/** A tag hash (name, lname, color?, description?, created_at, updated_at in ms) → the public Tag. */
export function toTag(id: string, h: Record<string, string>, memoryCount: number): Tag {
  return {
    id,
    name: h.name ?? "",
    color: h.color ?? null,
    description: h.description ?? null,
    memory_count: memoryCount,
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
  };
}

/** What list sorting needs of a tag. */
export interface SortRow {
  id: string;
  lname: string;
  created: number;
  count: number;
}

/**
 * Sort order of tag lists. Names compare case-insensitively by code unit (deterministic, so pages
 * never overlap); ties of `memory_count` / `created_at` fall back to the name, ascending.
 */
export function compareRows(sort: TagSort, order: "asc" | "desc") {
  const byName = (a: SortRow, b: SortRow) =>
    a.lname < b.lname ? -1 : a.lname > b.lname ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  const dir = order === "asc" ? 1 : -1;
  return (a: SortRow, b: SortRow) => {
    if (sort === "name") return dir * byName(a, b);
    const diff = sort === "memory_count" ? a.count - b.count : a.created - b.created;
    return diff !== 0 ? dir * diff : byName(a, b);
  };
}

/** Tags as a memory shows them: sorted by name, like the default tag list. */
export function sortRefs(refs: TagRef[]): TagRef[] {
  return refs
    .map((r) => ({ r, k: foldName(r.name) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.r.id < b.r.id ? -1 : 1))
    .map((x) => x.r);
}
