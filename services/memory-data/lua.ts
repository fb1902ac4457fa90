/**
 * The Lua of the memory data layer, defined at the top of the memories and the tags function libraries
 * (`shared` of kit/redis-functions.ts) before each library's own helpers: the tenant's key names
 * (keyspace.lua), then a memory's links and version (links.lua).
 */
export const MEMORY_DATA_LUA = ["keyspace.lua", "links.lua"].map((file) => new URL(`./${file}`, import.meta.url));
