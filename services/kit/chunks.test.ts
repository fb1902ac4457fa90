import { expect, test } from "bun:test";
import { chunksOf } from "./chunks";

test("chunksOf cuts in order into runs of the size, the last shorter; nothing gives no chunk", () => {
  expect(chunksOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  expect(chunksOf([1, 2], 2)).toEqual([[1, 2]]);
  expect(chunksOf([], 3)).toEqual([]);
});
