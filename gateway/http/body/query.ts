/** Query parameters by name; repeated names (`tag_id=a&tag_id=b`) become arrays. */
export type QueryMap = Record<string, string | string[]>;

/**
 * Parses a URL's query string into a map without a prototype: a parameter named `__proto__`,
 * `constructor` or `toString` is a key like any other (validation then refuses it as an unknown
 * field), never an inherited property read or a prototype assigned.
 */
export function parseQuery(url: string): QueryMap {
  const out: QueryMap = Object.create(null);
  const q = url.indexOf("?");
  if (q < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
