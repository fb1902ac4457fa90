import { defineLibrary } from "../../kit/redis-functions";

/** The one function of this module: a change of settings, stamped with Redis TIME in the same step. */
export const tenantLibrary = await defineLibrary({
  name: "tenant",
  dir: new URL("./", import.meta.url),
  functions: { update: "write" },
});
