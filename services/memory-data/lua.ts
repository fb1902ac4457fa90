/**
 * The Lua of the memory data layer, defined at the top of the memories and the tags function libraries
 * (`shared` of kit/redis-functions.ts) before each library's own helpers: the tenant's key names
 * (keyspace.lua), a memory's links and version (links.lua), then its clock and visibility (memory-life.lua).
 */
export const MEMORY_DATA_LUA = ["keyspace.lua", "links.lua", "memory-life.lua"].map(
  (file) => new URL(`./${file}`, import.meta.url),
);
