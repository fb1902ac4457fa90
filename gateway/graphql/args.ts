import { notFound } from "../../services/contract/errors";
import { isUuid } from "../../services/contract/validation";

/**
 * Argument objects whose fields are spread into the operation input, with the names whose contract
 * name is not their plain snake_case (the list filter's `tagIds` is REST's repeatable `tag_id`).
 * In `input`, null is a value (it clears a field); elsewhere null means "not given", as in a query string.
 */
const SPREAD: Record<string, { renames: Record<string, string>; keepNull: boolean }> = {
  input: { renames: {}, keepNull: true },
  filter: { renames: { tagIds: "tag_id" }, keepNull: false },
};

const snakeCache = new Map<string, string>();
/** `memoryNature` → `memory_nature`, cached: the set of names is the schema's, so it stays small. */
export function snake(name: string): string {
  let out = snakeCache.get(name);
  if (out === undefined) {
    out = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeCache.set(name, out);
  }
  return out;
}

/** `parent_memory_id` → `parentMemoryId` (event `changed` lists name GraphQL fields). */
export const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const value = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/**
 * The one mapping from GraphQL arguments to a contract input: top-level names to snake_case, `input`
 * and `filter` objects spread in, DateTime values back to ISO strings, null arguments left out.
 * Values are not walked, so a `metadata` object keeps its keys as sent. `extra` (e.g. a path id)
 * wins over arguments.
 */
// Typed by the operation it is passed to, and validated there by bus.call.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function toInput(args: Record<string, unknown>, extra: Record<string, unknown> = {}): any {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    const spread = SPREAD[k];
    if (spread && typeof v === "object") {
      for (const [ik, iv] of Object.entries(v)) {
        if (iv !== undefined && (iv !== null || spread.keepNull)) out[spread.renames[ik] ?? snake(ik)] = value(iv);
      }
    } else out[snake(k)] = value(v);
  }
  return Object.assign(out, extra);
}

/**
 * REST answers 404 for a malformed id in a path (gateway/rest/route.ts `ids`); ids given as
 * GraphQL arguments behave the same, so both adapters present an unknown id alike.
 */
export function knownId(id: string, what: string): string {
  if (!isUuid(id)) throw notFound(what);
  return id;
}
