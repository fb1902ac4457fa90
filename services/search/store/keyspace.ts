import { hashTag, type Space } from "../../kit/space";

/**
 * Every Redis key of the search index. All keys of one tenant+environment share the hash tag
 * `{tenant:env}` (kit/space.ts `hashTag`), so each Redis function of store/ touches one cluster slot.
 * The writers build the names of keys they meet as they run (postings, filter sets, vector sets,
 * documents) from the declared `all` key's prefix, with the same suffixes as below (`d:`, `t:`, `f:`,
 * `v:`; lua/common.lua): change them together.
 *
 *   s:{t:e}:d:<id>      hash  one indexed memory (or its tombstone): fields DOC in fields.ts
 *   s:{t:e}:t:<term>    zset  postings: memory id → BM25 term weight w(t, d)
 *   s:{t:e}:f:<suffix>  zset  filter sets, memory id → created_at ms: tier:<v>, ct:<v>, nat:<v>,
 *                             tag:<id>, ent:<id>, meta:<token>, parent:<id> (also the sibling order);
 *                             kinds FILTER_KINDS in fields.ts
 *   s:{t:e}:all         zset  every indexed memory → created_at ms (N of BM25, `*` queries)
 *   s:{t:e}:occ         zset  every indexed memory → occurred_at ms (occurred_* filters, as_of)
 *   s:{t:e}:vto         zset  superseded memories → valid_to ms (as_of)
 *   s:{t:e}:exp         zset  memories that expire → expires_at ms (expired ones are left out of results)
 *   s:{t:e}:o:<parent>  zset  a parent's children, all scored 0, members threadOrderMember (fields.ts): the
 *                             thread's order (previous / next sibling)
 *   s:{t:e}:stats       hash  Σ posting lengths (avgdl = Σ / N): fields STATS
 *   s:{t:e}:v:<model>   vset  vectors of one embedding model (int8), attributes ATTRS (JSON)
 *   s:{t:e}:meta        hash  which model built the index, and whether it is ready: fields META; a
 *                             missing or outdated meta is what makes the service rebuild it by itself
 *   s:{t:e}:lock        str   rebuild lock (one rebuild per tenant at a time)
 *   s:{t:e}:tmp:<uuid>  zset  scratch sets of one query, deleted by the script that made them
 */
export const searchPrefix = (s: Space) => `s:${hashTag(s)}:`;

export const searchKeys = (s: Space) => {
  const p = searchPrefix(s);
  return {
    prefix: p,
    doc: (id: string) => `${p}d:${id}`,
    term: (term: string) => `${p}t:${term}`,
    filter: (suffix: string) => `${p}f:${suffix}`,
    all: `${p}all`,
    occurred: `${p}occ`,
    validTo: `${p}vto`,
    expiring: `${p}exp`,
    threadOrder: (parent: string) => `${p}o:${parent}`,
    stats: `${p}stats`,
    vectors: (modelId: string) => `${p}v:${modelId}`,
    meta: `${p}meta`,
    lock: `${p}lock`,
    tmp: () => `${p}tmp:${crypto.randomUUID()}`,
  };
};
export type SearchKeys = ReturnType<typeof searchKeys>;

/** `s:{acme:live}:meta` → {tenant: "acme", env: "live"}; how `reindex` finds the tenants it knows. */
export function spaceOfMetaKey(key: string): Space | null {
  const m = /^s:\{(.+):(live|test)\}:meta$/.exec(key);
  return m ? { tenant: m[1]!, env: m[2] as Space["env"] } : null;
}
export const META_KEY_PATTERN = "s:{*}:meta";

/** `s:{acme:live}:all` → {tenant: "acme", env: "live"}: every space with a memory indexed has the key. */
export function spaceOfAllKey(key: string): Space | null {
  const m = /^s:\{(.+):(live|test)\}:all$/.exec(key);
  return m ? { tenant: m[1]!, env: m[2] as Space["env"] } : null;
}
/** What SCAN matches for the `all` keys (Redis's glob gives braces no meaning). */
export const ALL_KEY_MATCH = "s:{*}:all";
