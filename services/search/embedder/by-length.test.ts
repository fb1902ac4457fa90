import { expect, test } from "bun:test";
import { byTextLength } from "./by-length";

/** An embedder that answers, per text, which path took it and with how many others. */
const path = (name: string) => (texts: string[]) =>
  texts.map((t) => Object.assign(new Float32Array([t.length]), { path: name, batch: texts.length }));

test("each text goes by its own length, in one call per path, and the vectors come back in order", () => {
  const calls: string[][] = [];
  const spy = (name: string) => (texts: string[]) => {
    calls.push([name, ...texts]);
    return path(name)(texts);
  };
  const embed = byTextLength(spy("short"), spy("long"), 5);
  const out = embed(["aa", "bbbbbbb", "ccccc", "dddddddd", "e"]) as (Float32Array & { path: string })[];
  expect(out.map((v) => v.path)).toEqual(["short", "long", "short", "long", "short"]);
  expect(out.map((v) => v[0])).toEqual([2, 7, 5, 8, 1]);
  expect(calls).toEqual([
    ["short", "aa", "ccccc", "e"],
    ["long", "bbbbbbb", "dddddddd"],
  ]);
  // A text alone takes the same path as in a batch of others.
  expect((embed(["bbbbbbb"])[0] as Float32Array & { path: string }).path).toBe("long");
  expect(embed([])).toEqual([]);
});
