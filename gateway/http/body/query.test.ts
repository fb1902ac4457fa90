import { describe, expect, test } from "bun:test";
import { parseQuery } from "./query";

describe("parseQuery", () => {
  test("repeated names become arrays, in order", () => {
    const q = parseQuery("/v1/memories?tag_id=a&limit=5&tag_id=b&tag_id=c");
    expect({ ...q }).toEqual({ tag_id: ["a", "b", "c"], limit: "5" });
    expect({ ...parseQuery("/v1/memories") }).toEqual({});
  });

  test("prototype-named parameters are plain keys: nothing inherited, no prototype assigned", () => {
    const q = parseQuery("/v1/tags?__proto__=1&sort=x&constructor=c&prototype=p&toString=t&__proto__=2");
    expect(Object.getPrototypeOf(q)).toBeNull();
    expect(Object.entries(q).sort()).toEqual([
      ["__proto__", ["1", "2"]],
      ["constructor", "c"],
      ["prototype", "p"],
      ["sort", "x"],
      ["toString", "t"],
    ]);
    expect(({} as Record<string, unknown>).sort).toBeUndefined();
  });
});
