import { describe, expect, test } from "bun:test";
import { idf, normaliseBm25 } from "./bm25";

describe("BM25 query side", () => {
  test("idf is positive, and rarer terms weigh more", () => {
    expect(idf(100, 1)).toBeCloseTo(Math.log(1 + 99.5 / 1.5), 12);
    expect(idf(100, 100)).toBeGreaterThan(0);
    expect(idf(100, 1)).toBeGreaterThan(idf(100, 10));
    expect(idf(1, 1)).toBeCloseTo(Math.log(1 + 0.5 / 1.5), 12);
  });

  test("normalisation: share of the query's idf, capped at 1", () => {
    expect(normaliseBm25(2, 4)).toBe(0.5);
    expect(normaliseBm25(6, 4)).toBe(1);
    expect(normaliseBm25(0, 4)).toBe(0);
    expect(normaliseBm25(3, 0)).toBe(0);
  });
});
