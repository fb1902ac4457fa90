import { OUTSIDE_SECRET, type World } from "./seed";
import { insideCount, type Snapshot } from "./snapshot";

/** Strings of B an answer must not hold: B's content, B's memory ids and external ids not sent by the request. */
export function leaks(o: { text: string }, sent: string, outside: string[]): string[] {
  const out: string[] = [];
  if (o.text.includes(OUTSIDE_SECRET)) out.push("shows B's content");
  for (const id of outside) if (o.text.includes(id) && !sent.includes(id)) out.push(`names B's memory ${id}`);
  if (o.text.includes("ext-b") && !sent.includes("ext-b")) out.push("names B's external id");
  return out;
}

/** Counts in an answer that count more than A's memories (see the file's comment for what a count is). */
export function badCounts(w: World, s: Snapshot, body: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== "object") return;
    const o = v as Record<string, any>;
    const count = o.memory_count ?? o.memoryCount;
    if (typeof o.id === "string" && typeof count === "number" && (s.tags.has(o.id) || s.entities.has(o.id))) {
      const expected = insideCount(w, s, o.id);
      if (count !== expected) out.push(`memory_count of ${o.id} is ${count}, A's memories carrying it: ${expected}`);
    }
    const items = Array.isArray(o.items) ? o.items : Array.isArray(o.data) ? o.data : null;
    const page = o.meta ?? o;
    if (items && typeof page.total === "number" && !page.offset && items.length < (page.limit ?? Infinity))
      if (page.total !== items.length) out.push(`total ${page.total} for ${items.length} items`);
    Object.values(o).forEach(walk);
  };
  walk(body);
  return out;
}
