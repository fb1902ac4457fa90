import type Redis from "ioredis";

/** The Lua scripts of the index; common.lua (sibling lookup, lexical relex) is prepended to the writers. */
const read = (name: string) => Bun.file(new URL(`./lua/${name}.lua`, import.meta.url)).text();
const common = await read("common");
const SOURCES = {
  searchUpsert: `${common}\n${await read("upsert")}`,
  searchDelete: `${common}\n${await read("delete")}`,
  searchReweight: `${common}\n${await read("reweight")}`,
  searchQuery: await read("query"),
};

type Arg = string | number | Buffer;
/** ioredis adds defined commands at runtime; this is their typed face (numkeys first, then keys, args). */
export type Scripts = Record<keyof typeof SOURCES, (numKeys: number, ...args: Arg[]) => Promise<unknown>>;

export function defineScripts(redis: Redis): Scripts {
  for (const [name, lua] of Object.entries(SOURCES)) redis.defineCommand(name, { lua });
  return redis as unknown as Scripts;
}
