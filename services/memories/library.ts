import { KEYSPACE_LUA } from "../memory-data/keyspace";
import { defineLibrary } from "../kit/redis-functions";

/**
 * The memories service's Redis functions: lua/<name>.lua each, with lua/helpers.lua and the tenant's key
 * names (memory-data/keyspace.lua) defined once at the top of the library rather than on every call.
 */
export const memoriesLibrary = await defineLibrary({
  name: "memories",
  dir: new URL("./lua/", import.meta.url),
  shared: [KEYSPACE_LUA, "helpers.lua"],
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
