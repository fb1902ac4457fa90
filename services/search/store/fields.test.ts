import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { ATTRS, DOC, FILTER_KINDS, luaFieldTables, META, STATS } from "./fields";

describe("stored names", () => {
  test("are the ones existing indexes hold (renaming one orphans every stored memory's field)", () => {
    expect(Object.values(DOC)).toEqual([
      "v",
      "del",
      "model",
      "ch",
      "tf",
      "fk",
      "par",
      "ca",
      "ua",
      "at",
      "prev",
      "post",
      "pl",
    ]);
    expect(Object.values(STATS)).toEqual(["len"]);
    expect(Object.values(META)).toEqual(["model", "dims", "state", "built_at"]);
    expect(Object.values(ATTRS)).toEqual(["tier", "ct", "nat", "parent", "tags", "ents", "meta", "ca"]);
    expect(Object.keys(FILTER_KINDS)).toEqual(["tier", "ct", "nat", "parent", "tag", "ent", "meta"]);
  });

  test("each field of a table has its own stored name", () => {
    for (const table of [DOC, STATS, META, ATTRS]) {
      expect(new Set(Object.values(table)).size).toBe(Object.values(table).length);
    }
  });

  test("the Lua tables name the same fields", () => {
    const lua = luaFieldTables();
    expect(lua).toContain("local DOC = { version = 'v', deleted = 'del',");
    for (const [name, stored] of Object.entries({ ...DOC, ...STATS })) expect(lua).toContain(`${name} = '${stored}'`);
  });

  test("the Redis functions name hash fields only through those tables, never as literals", () => {
    const dir = new URL("../lua/", import.meta.url);
    const literals: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".lua"))) {
      const code = readFileSync(new URL(file, dir), "utf8");
      for (const call of code.matchAll(/redis\.call\('H[A-Z]+',/g)) {
        let depth = 1;
        let end = call.index + call[0].length;
        while (depth > 0 && end < code.length) depth += { "(": 1, ")": -1 }[code[end++]!] ?? 0;
        const args = code.slice(call.index + call[0].length, end);
        for (const lit of args.matchAll(/'[A-Za-z_]+'/g)) literals.push(`${file}: ${lit[0]}`);
      }
    }
    expect(literals).toEqual([]);
  });
});
