import { defineLibrary } from "../../kit/redis-functions";

/** Records are replaced by compare and set (replace.lua), so two changes of one key never overwrite each other. */
export const keysLibrary = await defineLibrary({
  name: "keys",
  dir: new URL("./", import.meta.url),
  functions: { replace: "write" },
});
