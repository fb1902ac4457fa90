import { keyspace, type Keyspace, type Space } from "../kit/keyspace";

/**
 * How the Lua scripts learn key names without repeating keyspace.ts: every call passes the tenant's
 * fixed keys and, for per-id keys, the text before and after the id. The scripts build `K.memory(id)`
 * etc. from them. All of these keys share the tenant's `{tenant:env}` hash tag, so scripts that walk a
 * hierarchy (and so cannot declare every key up front) still touch one cluster slot only.
 */
const FIXED = {
  created: (ks: Keyspace) => ks.byCreated,
  updated: (ks: Keyspace) => ks.byUpdated,
  roots: (ks: Keyspace) => ks.roots,
  ext: (ks: Keyspace) => ks.externalIds,
  entNames: (ks: Keyspace) => ks.entityNames,
  entCreated: (ks: Keyspace) => ks.entitiesByCreated,
} as const;

const PER_ID = {
  memory: (ks: Keyspace) => ks.memory,
  tags: (ks: Keyspace) => ks.memoryTags,
  kids: (ks: Keyspace) => ks.memoryKids,
  ents: (ks: Keyspace) => ks.memoryEntities,
  tag: (ks: Keyspace) => ks.tag,
  tagMembers: (ks: Keyspace) => ks.tagMembers,
  entity: (ks: Keyspace) => ks.entity,
  entMembers: (ks: Keyspace) => ks.entityMembers,
  content_type: (ks: Keyspace) => (v: string) => ks.byField("content_type", v),
  tier: (ks: Keyspace) => (v: string) => ks.byField("tier", v),
  memory_nature: (ks: Keyspace) => (v: string) => ks.byField("memory_nature", v),
} as const;

const MARK = "\u0000";
const fixedNames = Object.keys(FIXED) as (keyof typeof FIXED)[];
const perIdNames = Object.keys(PER_ID) as (keyof typeof PER_ID)[];
export const LAYOUT_SIZE = fixedNames.length + 2 * perIdNames.length;

/** Recently used tenants' layouts: building one costs ~30 string operations, on every script call. */
const layouts = new Map<string, string[]>();
const LAYOUTS_KEPT = 10_000;

/** The layout arguments of one tenant+environment, in the order the prelude reads them. */
export function layoutArgs(space: Space): string[] {
  const id = `${space.env}:${space.tenant}`;
  let out = layouts.get(id);
  if (!out) {
    if (layouts.size >= LAYOUTS_KEPT) layouts.clear();
    layouts.set(id, (out = buildLayoutArgs(space)));
  }
  return out;
}

function buildLayoutArgs(space: Space): string[] {
  const ks = keyspace(space);
  const out = fixedNames.map((n) => FIXED[n](ks));
  for (const n of perIdNames) {
    const [before, after] = PER_ID[n](ks)(MARK).split(MARK);
    out.push(before!, after!);
  }
  return out;
}

/** Lua that defines `K` from the layout and `A`, the script's own arguments after it. */
export function luaPrelude(): string {
  const lines = ["local K = {}"];
  fixedNames.forEach((n, i) => lines.push(`K.${n} = ARGV[${i + 1}]`));
  lines.push("local function tpl(i) local pre, post = ARGV[i], ARGV[i + 1]; return function(id) return pre .. id .. post end end");
  perIdNames.forEach((n, i) => lines.push(`K.${n} = tpl(${fixedNames.length + 2 * i + 1})`));
  lines.push(`local A = {}`, `for i = ${LAYOUT_SIZE + 1}, #ARGV do A[#A + 1] = ARGV[i] end`);
  return lines.join("\n") + "\n";
}
