import { MEMORY_DATA_LUA } from "../../memory-data/lua";
import { defineLibrary } from "../../kit/redis-functions";
import { SETTINGS_LUA } from "../../tenant-settings/settings";

/**
 * The memories service's Redis functions: lua/<name>.lua each, with memory-data's Lua (key names, links,
 * visibility), what it reads of the tenant's settings, and lua/helpers.lua, quota.lua (what a tenant stores,
 * checked against its quotas), order.lua (pages in a memory order), life.lua (occurred_at, expiry,
 * supersession, removal) and create-memory.lua (one create, alone or in a batch) defined once at the top of
 * the library rather than on every call.
 */
export const memoriesLibrary = await defineLibrary({
  name: "memories",
  dir: new URL("./", import.meta.url),
  shared: [...MEMORY_DATA_LUA, SETTINGS_LUA, "helpers.lua", "quota.lua", "order.lua", "life.lua", "create-memory.lua"],
  functions: {
    create: "write",
    "create-batch": "write",
    update: "write",
    delete: "write",
    get: "read",
    ancestors: "read",
    "chain-head": "read",
    "removal-touches": "read",
    siblings: "read",
    list: "read",
    purge: "write",
    "due-register": "write",
    "due-claim": "write",
    "due-release": "write",
    "entity-create": "write",
    "entity-update": "write",
    "entity-delete": "write",
    "entity-link": "write",
    "entity-unlink": "write",
    "entity-get": "read",
    "entity-list": "read",
    export: "read",
    "import-probe": "read",
    "import-links": "write",
  },
});

export type MemoryFunction = Parameters<ReturnType<typeof memoriesLibrary.on>>[0];
