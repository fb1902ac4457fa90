/**
 * The Lua of the memory data layer, defined at the top of the memories and the tags function libraries
 * (`shared` of kit/redis-functions.ts) before each library's own helpers: the tenant's key names
 * (keyspace.lua), a memory's links and version (links.lua), the memory hash's writes (memory-record.lua),
 * then its clock and visibility (memory-life.lua). These are memory-data's functions: the only Lua that writes
 * memory-data's keys (docs/architecture.md, "Data ownership").
 */
export const MEMORY_DATA_LUA = ["keyspace.lua", "links.lua", "memory-record.lua", "memory-life.lua"].map(
  (file) => new URL(`./${file}`, import.meta.url),
);
