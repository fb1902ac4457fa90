import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import {
  ATTRS,
  DOC,
  FILTER_KINDS,
  luaFieldTables,
  META,
  STATS,
  THREAD_ORDER_TIME_DIGITS,
  threadOrderMember,
} from "./fields";

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
      "oa",
      "to",
      "vc",
    ]);
    expect(Object.values(STATS)).toEqual(["len", "xv"]);
    expect(Object.values(META)).toEqual(["model", "dims", "state", "built_at", "layout"]);
    expect(Object.values(ATTRS)).toEqual([
      "tier",
      "ct",
      "nat",
      "parent",
      "tags",
      "ents",
      "meta",
      "ca",
      "oa",
      "vto",
      "lt",
    ]);
    expect(Object.keys(FILTER_KINDS)).toEqual(["tier", "ct", "nat", "parent", "tag", "ent", "meta", "latest"]);
  });

  test("thread-order members sort as (occurred_at, created_at, id), before 1970 too, and end with the id", () => {
    const members = [
      threadOrderMember(-86_400_000, 5, "b"),
      threadOrderMember(0, 9, "a"),
      threadOrderMember(1_700_000_000_000, 2, "z"),
      threadOrderMember(1_700_000_000_000, 3, "a"),
      threadOrderMember(1_700_000_000_000, 3, "b"),
      threadOrderMember(253_402_300_799_999, 1, "a"),
    ];
    expect([...members].sort()).toEqual(members);
    expect(members.map((m) => m.slice(2 * THREAD_ORDER_TIME_DIGITS))).toEqual(["b", "a", "z", "a", "b", "a"]);
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
