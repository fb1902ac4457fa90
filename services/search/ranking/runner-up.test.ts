import { describe, expect, test } from "bun:test";
import { runnerUp } from "./runner-up";

describe("a long memory's runner-up chunk", () => {
  test("is the best chunk that does not overlap the best one", () => {
    // The best chunk (3) and its neighbour (4) hold a sentence on their boundary: the neighbour does not count.
    const seen: [number, number][] = [
      [3, 0.35],
      [4, 0.3],
      [9, 0.08],
      [0, 0.06],
    ];
    expect(runnerUp(20, seen, 0.05)).toBe(0.08);
  });

  test("is the neighbour when every other chunk overlaps the best one", () => {
    expect(
      runnerUp(
        2,
        [
          [1, 0.5],
          [0, 0.45],
        ],
        0,
      ),
    ).toBe(0.45);
    expect(
      runnerUp(
        3,
        [
          [0, 0.2],
          [1, 0.5],
          [2, 0.3],
        ],
        0,
      ),
    ).toBe(0.3);
    // Three chunks, the best at an end: the far end is apart from it.
    expect(
      runnerUp(
        3,
        [
          [0, 0.5],
          [1, 0.45],
          [2, 0.1],
        ],
        0,
      ),
    ).toBe(0.1);
  });

  test("is at most the bound when the chunk it would be was not seen", () => {
    expect(
      runnerUp(
        8,
        [
          [5, 0.6],
          [4, 0.58],
        ],
        0.2,
      ),
    ).toBe(0.2);
    expect(runnerUp(2, [[0, 0.6]], 0.2)).toBe(0.2);
  });

  test("is undefined for a memory of one chunk, or with none known", () => {
    expect(runnerUp(1, [[0, 0.6]], 0.2)).toBeUndefined();
    expect(runnerUp(5, [], 0.2)).toBeUndefined();
  });
});
