import type { ApiClient } from "../api";
import type { MemoryView, World } from "./seed";

/**
 * Everything of a tenant as its key reads it: memories with all their fields (tags, entity ids, supersession
 * links, versions), tag and entity records. Taken before and after each request of a restricted token.
 */
export interface Snapshot {
  memories: Map<string, MemoryView>;
  tags: Map<string, Record<string, unknown>>;
  entities: Map<string, Record<string, unknown>>;
}

async function all(api: ApiClient, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await api.get(`${path}?limit=100&offset=${offset}`);
    if (res.status !== 200) throw new Error(`snapshot: ${path} answered ${res.status}`);
    out.push(...res.body.data);
    if (!res.body.meta.has_more) return out;
  }
}

export async function snapshot(api: ApiClient): Promise<Snapshot> {
  const [memories, tags, entities] = await Promise.all([
    all(api, "/v1/memories"),
    all(api, "/v1/tags"),
    all(api, "/v1/entities"),
  ]);
  const byId = <T extends { id: string }>(xs: T[]) => new Map(xs.map((x) => [x.id, x]));
  return { memories: byId(memories), tags: byId(tags), entities: byId(entities) };
}

export const outsideIds = (w: World, s: Snapshot) =>
  [...s.memories.values()].filter((m) => !w.isInside(m, s.memories)).map((m) => m.id);

/** A tag's or entity's record apart from its count, which A's own links move. */
const record = (r: Record<string, unknown> | undefined) => JSON.stringify(r ? { ...r, memory_count: 0 } : null);

/**
 * How user B's data changed between two snapshots, and whether A's writes left A's side: B's memories (all
 * fields), the records of the tags and entities B's memories carry, memories that moved outside or appeared
 * outside. Empty when nothing did.
 */
export function changes(w: World, before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  const carried = { tags: new Set<string>(), entities: new Set<string>() };
  for (const m of before.memories.values()) {
    const inside = w.isInside(m, before.memories);
    const now = after.memories.get(m.id);
    if (!inside) {
      for (const t of m.tags) carried.tags.add(t.id);
      for (const e of m.entity_ids) carried.entities.add(e);
      if (JSON.stringify(now) !== JSON.stringify(m))
        out.push(`B's memory ${m.id} changed: ${JSON.stringify(m)} -> ${JSON.stringify(now ?? "deleted")}`);
    } else if (now && !w.isInside(now, after.memories)) out.push(`A's memory ${m.id} moved outside A`);
  }
  for (const m of after.memories.values())
    if (!before.memories.has(m.id) && !w.isInside(m, after.memories))
      out.push(`a memory was created outside A: ${JSON.stringify(m)}`);
  for (const [kind, ids] of Object.entries(carried) as ["tags" | "entities", Set<string>][])
    for (const id of ids)
      if (record(before[kind].get(id)) !== record(after[kind].get(id)))
        out.push(`${kind} ${id} that B's memories carry changed: ${record(after[kind].get(id))}`);
  return out;
}

/** How many of A's memories carry a tag or an entity: the only count a token of A may see. */
export function insideCount(w: World, s: Snapshot, id: string): number {
  let n = 0;
  for (const m of s.memories.values())
    if (w.isInside(m, s.memories) && (m.tags.some((t) => t.id === id) || m.entity_ids.includes(id))) n++;
  return n;
}
