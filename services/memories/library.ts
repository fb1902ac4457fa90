import { MEMORY_DATA_LUA } from "../memory-data/lua";
import { defineLibrary } from "../kit/redis-functions";

/**
 * The memories service's Redis functions: lua/<name>.lua each, with memory-data's Lua (key names, links)
 * and lua/helpers.lua defined once at the top of the library rather than on every call.
 */
export const memoriesLibrary = await defineLibrary({
  name: "memories",
  dir: new URL("./lua/", import.meta.url),
  shared: [...MEMORY_DATA_LUA, "helpers.lua"],
  functions: {
    create: "write",
    update: "write",
    delete: "write",
    get: "read",
    ancestors: "read",
    list: "read",
    "entity-create": "write",
    "entity-update": "write",
    "entity-delete": "write",
    "entity-link": "write",
    "entity-unlink": "write",
    "entity-get": "read",
    "entity-list": "read",
  },
});

export type MemoryFunction = Parameters<ReturnType<typeof memoriesLibrary.on>>[0];
