import { expect, test } from "bun:test";
import { hashOfPairs } from "./redis-replies";

test("hashOfPairs turns HGETALL's flat reply into an object", () => {
  expect(hashOfPairs(["a", "1", "b", ""])).toEqual({ a: "1", b: "" });
  expect(hashOfPairs([])).toEqual({});
});
