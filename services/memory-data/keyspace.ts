import { hashTag, type Space } from "../kit/space";

/**
 * Redis key names of a tenant's data graph (memories, tags, links, entities), all in the space's
 * cluster slot (kit/space.ts), so Lua scripts that update a record and its indexes (or a link and
 * both of its ends) stay atomic on a cluster.
 *
 * Names are not ownership: each family has one owner module (docs/architecture.md, "Data ownership", checked by
 * test/codebase/key-ownership.test.ts). The memory hash (its version `v` included) and the link sets
 * (`m:…:tags` ↔ `t:…:mems`, `m:…:ents` ↔ `e:…:mems`) are memory-data's: the memories and tags functions write
 * them only through its Lua (memory-record.lua, links.lua), which changes both ends of a link at once, since a
 * link half-written on one side would break `memory_count` and filters. `mi:`, `e:`, `ei:` and `m:…:kids` are
 * the memories service's, `t:` and `ti:` the tags service's. keyspace.lua names the same keys in Lua, for
 * functions that meet ids as they run.
 */
export const keyspace = (s: Space) => {
  const t = hashTag(s);
  return {
    // memories
    // hash: content, content_type, tier, memory_nature, parent, external_id, metadata, created_at, updated_at, v;
    // its life (memory-life.lua): occurred_at, expires_at, supersedes, superseded_by, valid_to (ms, ids)
    memory: (id: string) => `m:${t}:${id}`,
    memoryTags: (id: string) => `m:${t}:${id}:tags`, // set of tag ids
    // zset child id → occurred_at ms: the thread's order (ties by created_at, then id)
    memoryKids: (id: string) => `m:${t}:${id}:kids`,
    memoryEntities: (id: string) => `m:${t}:${id}:ents`, // set of entity ids
    byCreated: `mi:${t}:created`, // zset id → created_at ms (every memory)
    byUpdated: `mi:${t}:updated`, // zset id → updated_at ms
    byOccurred: `mi:${t}:occurred`, // zset id → occurred_at ms (every memory)
    expiring: `mi:${t}:expiring`, // zset id → expires_at ms (memories that expire)
    roots: `mi:${t}:roots`, // zset id → created_at ms (memories without parent)
    // zset id → created_at ms
    byField: (field: "tier" | "content_type" | "memory_nature", value: string) => `mi:${t}:${field}:${value}`,
    externalIds: `mi:${t}:ext`, // hash external_id → id
    // hash: memories (stored, expired ones until purged), bytes (their content + metadata); quota.lua
    storage: `mi:${t}:storage`,
    // tags
    // hash: name, lname (unique-name key, see tags/record.ts), color?, description?, created_at, updated_at
    tag: (id: string) => `t:${t}:${id}`,
    // zset memory id → created_at ms of the memory; ZCARD = memory_count
    tagMembers: (id: string) => `t:${t}:${id}:mems`,
    tagNames: `ti:${t}:names`, // hash foldName(name) → id
    tagsByCreated: `ti:${t}:created`, // zset id → created_at ms
    // entities
    entity: (id: string) => `e:${t}:${id}`, // hash: name, type, description, metadata, created_at, updated_at
    entityMembers: (id: string) => `e:${t}:${id}:mems`, // zset memory id → created_at ms of the memory
    entityNames: `ei:${t}:names`, // hash "<type>:<foldName(name)>" → id
    entitiesByCreated: `ei:${t}:created`, // zset id → created_at ms
  };
};

export type Keyspace = ReturnType<typeof keyspace>;

/**
 * Where the expiry sweeper finds work, across tenants (its own hash tag, so its functions stay on one slot):
 * `due` is a zset `{tenant:env}` → when that space next needs a look (ms), `gen` a hash `{tenant:env}` → how
 * many times an expiry was registered for it (services/memories/expiry/).
 */
export const EXPIRY_REGISTRY = { due: "sweep:{expiry}:due", gen: "sweep:{expiry}:gen" } as const;

/**
 * A name as the name indexes (`tagNames`, `entityNames`) key it, so names are unique case-insensitively;
 * lists that search or sort by name compare it too. NFC first, so the same text typed with composed or
 * decomposed accents is one name; lower-casing is done here, not in Lua, whose string.lower is ASCII-only.
 */
export const foldName = (name: string) => name.normalize("NFC").toLowerCase();
