import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { EXPIRY_REGISTRY, keyspace } from "../../services/memory-data/keyspace";
import { type Family, luaViolations, type LuaNames, luaNamesOf, parseOwnershipTable, tsViolations } from "./key-owners";

/**
 * docs/architecture.md's ownership table, held against the code: each key family has one owner module, and
 * only that module's Lua writes it (others call the owner's Lua functions, defined atop their library, so an
 * attach that bumps a memory's version stays one atomic step) and only its TypeScript names it in a Redis
 * command (others call the owner's TypeScript). Lua may read another owner's keys within its atomic step.
 */
const ROOT = resolve(import.meta.dir, "../..");

async function sources(glob: string): Promise<{ path: string; text: string }[]> {
  const git = Bun.spawn(["git", "ls-files", "-z", glob], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const listed = (await new Response(git.stdout).text()).split("\0");
  // Tests and fixtures set up and inspect state as they need; the rule is for the code that runs.
  const paths = listed.filter((p) => p && !/\.test\.ts$|\.fixture/.test(p) && /^(services|gateway)\//.test(p));
  return Promise.all(paths.map(async (path) => ({ path, text: await Bun.file(resolve(ROOT, path)).text() })));
}

const families: Family[] = parseOwnershipTable(await Bun.file(resolve(ROOT, "docs/architecture.md")).text());
const lua = await sources("*.lua");
const ts = await sources("*.ts");
const names: LuaNames = luaNamesOf(lua.map((f) => f.text));

/** Every key memory-data/keyspace.ts names (with an id where it takes one), the expiry registry's too. */
function keyspaceKeys(): [string, string][] {
  const ks = keyspace({ tenant: "acme", env: "live" });
  const out: [string, string][] = Object.entries(ks).map(([member, k]) => [
    member,
    typeof k === "function" ? (k as (a: string, b: string) => string)("tier", "ID") : k,
  ]);
  return [...out, ...Object.entries(EXPIRY_REGISTRY).map(([m, k]): [string, string] => [`EXPIRY_REGISTRY.${m}`, k])];
}

describe("the ownership table", () => {
  test("names an owner folder for every key family, and the folder holds code", () => {
    expect(families.length).toBeGreaterThan(10);
    const missing = families.filter((f) => !lua.concat(ts).some((s) => s.path.startsWith(f.owner)));
    expect(missing.map((f) => `${f.pattern} → ${f.owner}`)).toEqual([]);
  });

  test("has exactly one row for every key memory-data/keyspace.ts names, and for keyspace.lua's", () => {
    const keys = [...keyspaceKeys(), ...Object.entries(names.tk).map(([n, k]): [string, string] => [`TK.${n}`, k])];
    const wrong = keys.flatMap(([member, key]) => {
      const rows = families.filter((f) => f.re.test(key));
      return rows.length === 1 ? [] : [`${member} (${key}): ${rows.length} rows`];
    });
    expect(wrong).toEqual([]);
    expect(Object.keys(names.tk).length).toBeGreaterThan(5);
    expect(Object.keys(names.k).length).toBeGreaterThan(10);
  });
});

describe("each key family has one owner", () => {
  test("no Lua script writes a key family its module does not own", () => {
    const found = lua.flatMap((f) => luaViolations(f.path, f.text, families, names));
    expect(found).toEqual([]);
  });

  // The check reads KEYS[n] from the header: a script of these libraries names its keys there, in backticks,
  // unless it takes the memories library's declared index keys (helpers.lua's use_keys).
  test("every tags and memories script lists its KEYS where the check reads them", () => {
    const unreadable = lua
      .filter((f) => /^services\/(tags|memories)\//.test(f.path) && /^-- KEYS:/m.test(f.text))
      .filter((f) => !/^-- KEYS:.*(`|index keys)/m.test(f.text))
      .map((f) => f.path);
    expect(unreadable).toEqual([]);
  });

  test("no TypeScript module names another module's keys in a Redis command or spells its prefix", () => {
    const found = ts.flatMap((f) => tsViolations(f.path, f.text, families, keyspaceKeys()));
    expect(found).toEqual([]);
  });

  // The checks find what they are for: a tags script that bumps a memory's version itself, a tags store that
  // reads memory hashes itself, a memories script that empties a tag's member set.
  test("a write or a read through another owner's keys is found", () => {
    const tagsLua = "local v = redis.call('HINCRBY', TK.memory(ARGV[1]), 'v', 1)\n";
    expect(luaViolations("services/tags/lua/x.lua", tagsLua, families, names)).toHaveLength(1);
    const memoriesLua = "local m = K.tagMembers(id)\nredis.call('DEL', K.created, m)\n";
    expect(luaViolations("services/memories/lua/x.lua", memoriesLua, families, names)).toHaveLength(1);
    const header =
      "-- KEYS: `t:<id>` the tag hash, then per memory: `m:<id>` the memory hash\nredis.call('DEL', KEYS[3])\n";
    expect(luaViolations("services/tags/lua/x.lua", header, families, names)).toHaveLength(1);
    const tagsTs = "const ks = keyspace(space);\nconst h = await redis.hgetall(ks.memory(id));\n";
    expect(tsViolations("services/tags/x.ts", tagsTs, families, keyspaceKeys())).toHaveLength(1);
    const literal = "const k = `m:${hashTag(space)}:${id}`;\n";
    expect(tsViolations("services/tags/x.ts", literal, families, keyspaceKeys())).toHaveLength(1);
  });
});
