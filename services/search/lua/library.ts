import { defineLibrary } from "../../kit/redis-functions";
import { luaFieldTables } from "../store/fields";

/**
 * The search index's Redis functions (<name>.lua each), with the stored field names (../store/fields.ts, so Lua
 * spells them as TypeScript does) and common.lua defined once at the top of the library.
 */
export const searchLibrary = await defineLibrary({
  name: "search",
  dir: new URL("./", import.meta.url),
  shared: [{ lua: luaFieldTables() }, "common.lua"],
  functions: {
    upsert: "write",
    delete: "write",
    reweight: "write",
    query: "scratch",
    "lock-refresh": "write",
    "lock-release": "write",
  },
});

export type SearchCall = ReturnType<typeof searchLibrary.on>;
