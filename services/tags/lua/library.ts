import { defineLibrary } from "../../kit/redis-functions";
import { MEMORY_DATA_LUA } from "../../memory-data/lua";

/**
 * The tags service's Redis functions (<name>.lua each), with memory-data's Lua (key names, links, versions) and
 * helpers.lua defined once at the top of the library.
 */
export const tagsLibrary = await defineLibrary({
  name: "tags",
  dir: new URL("./", import.meta.url),
  shared: [...MEMORY_DATA_LUA, "helpers.lua"],
  functions: { create: "write", update: "write", delete: "write", attach: "write", detach: "write" },
});
