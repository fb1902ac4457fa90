/**
 * A flat field/value list as an object: HGETALL's reply, ZRANGE's WITHSCORES reply, or a hash a Redis
 * function answers with. A dangling last field (never sent by Redis) is dropped.
 */
export function hashOfPairs(flat: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
}
