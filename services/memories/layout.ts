import { keyspace, slot, type Space } from "../kit/keyspace";

/**
 * How the Lua library names keys without repeating keyspace.ts: its key templates are generated from
 * keyspace() itself, with the tenant's hash tag `{tenant:env}` left as the variable `S` that every
 * call sets first (`set_slot`). All of a tenant's keys share that hash tag, so functions that walk a
 * hierarchy (and so cannot declare every key up front) still touch one cluster slot only.
 */
const TENANT = "\u0001";
const ENV = "\u0002" as Space["env"];
const ID = "\u0000";
const marked = keyspace({ tenant: TENANT, env: ENV });
const SLOT = slot({ tenant: TENANT, env: ENV });

/** Keys of the whole tenant (`K.created` …), reset per call. */
const FIXED = {
  created: marked.byCreated,
  updated: marked.byUpdated,
  roots: marked.roots,
  ext: marked.externalIds,
  entNames: marked.entityNames,
  entCreated: marked.entitiesByCreated,
} as const;

/** Keys of one id or value (`K.memory(id)` …). */
const PER_ID = {
  memory: marked.memory(ID),
  tags: marked.memoryTags(ID),
  kids: marked.memoryKids(ID),
  ents: marked.memoryEntities(ID),
  tag: marked.tag(ID),
  tagMembers: marked.tagMembers(ID),
  entity: marked.entity(ID),
  entMembers: marked.entityMembers(ID),
  content_type: marked.byField("content_type", ID),
  tier: marked.byField("tier", ID),
  memory_nature: marked.byField("memory_nature", ID),
} as const;

/** `m:{…}:<id>:tags` → `'m:' .. S .. ':' .. id .. ':tags'` (literals are plain key text, checked). */
function luaConcat(template: string): string {
  const parts: string[] = [];
  for (const [i, bySlot] of template.split(SLOT).entries()) {
    if (i > 0) parts.push("S");
    for (const [j, text] of bySlot.split(ID).entries()) {
      if (j > 0) parts.push("id");
      if (text === "") continue;
      if (!/^[\w:.-]+$/.test(text)) throw new Error(`key text ${JSON.stringify(text)} is not plain`);
      parts.push(`'${text}'`);
    }
  }
  return parts.join(" .. ");
}

/** Lua defining `S`, `K` and `set_slot(s)`, for the top of the library. */
export function luaKeyspace(): string {
  const lines = ["local S = ''", "local K = {}", "local function set_slot(s)", "  S = s"];
  for (const [name, template] of Object.entries(FIXED)) lines.push(`  K.${name} = ${luaConcat(template)}`);
  lines.push("end");
  for (const [name, template] of Object.entries(PER_ID)) lines.push(`K.${name} = function(id) return ${luaConcat(template)} end`);
  return lines.join("\n") + "\n";
}
