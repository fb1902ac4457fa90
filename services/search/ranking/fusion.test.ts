import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  cosineInt8,
  DISCOUNTED_CHUNKS_MAX,
  fittedSemantic,
  matchScore,
  semanticFromVsim,
  SEMANTIC_WEIGHT,
  THREAD_WEIGHT,
  withEntity,
  withThread,
} from "./fusion";
import { rank } from "./rank";

describe("fusion", () => {
  test("VSIM's (1 + cos) / 2 becomes the cosine, floored at 0", () => {
    expect(semanticFromVsim(1)).toBe(1);
    expect(semanticFromVsim(0.75)).toBe(0.5);
    expect(semanticFromVsim(0.5)).toBe(0);
    expect(semanticFromVsim(0.2)).toBe(0);
  });

  test("match is the convex combination; thread support adds a share of what is left", () => {
    expect(matchScore(0.8, 0.4)).toBeCloseTo(SEMANTIC_WEIGHT * 0.8 + (1 - SEMANTIC_WEIGHT) * 0.4, 12);
    expect(withThread(0.6, 0.5)).toBeCloseTo(0.6 + THREAD_WEIGHT * 0.5 * 0.4, 12);
    expect(withThread(0.6, 0)).toBe(0.6);
  });

  test("every score stays in 0..1 and grows with each part", () => {
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(unit, unit, unit, unit, (s, l, t, d) => {
        const score = withThread(matchScore(s, l), t);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(withThread(matchScore(Math.min(1, s + d), l), t)).toBeGreaterThanOrEqual(score - 1e-12);
        expect(withThread(matchScore(s, l), Math.min(1, t + d))).toBeGreaterThanOrEqual(score - 1e-12);
      }),
    );
  });

  test("cosine against an int8 vector ignores its scale", () => {
    const q = Float32Array.from([0.6, 0.8, 0]);
    expect(cosineInt8(q, Int8Array.from([60, 80, 0]))).toBeCloseTo(1, 6);
    expect(cosineInt8(q, Int8Array.from([-6, -8, 0]))).toBeCloseTo(-1, 6);
    expect(cosineInt8(q, Int8Array.from([0, 0, 127]))).toBe(0);
    expect(cosineInt8(q, Int8Array.from([0, 0, 0]))).toBe(0);
  });
});

describe("rank", () => {
  test("orders by fused score, applies the threshold and the limit", () => {
    const out = rank(
      [
        { id: "a", semantic: 0.2, lexical: 0 },
        { id: "b", semantic: 0.9, lexical: 0.8 },
        { id: "c", semantic: 0.5, lexical: 0.5 },
      ],
      2,
      0,
    );
    expect(out.map((r) => r.id)).toEqual(["b", "c"]);
    expect(out[0]).toEqual({
      id: "b",
      score: Math.round(matchScore(0.9, 0.8) * 1e6) / 1e6,
      scores: { semantic: 0.9, lexical: 0.8, thread: 0, entity: null },
    });
    expect(rank([{ id: "a", semantic: 0.2, lexical: 0 }], 10, 0.2)).toEqual([]);
    expect(rank([{ id: "a", semantic: 0.2, lexical: 0 }], 10, 0).length).toBe(1);
  });

  test("naming whom the query names raises the match; neighbours borrow the raised match", () => {
    const params = { semanticWeight: 0.5, threadWeight: 0.5, entityWeight: 0.1, chunkDiscount: 0, peakWidth: 0 };
    const out = rank(
      [
        { id: "other", semantic: 0.5, lexical: 0.5, entity: 0 },
        { id: "named", semantic: 0.5, lexical: 0.5, entity: 1 },
        { id: "reply", semantic: 0, lexical: 0, entity: 0, prev: "named" },
      ],
      10,
      0,
      params,
    );
    const byId = Object.fromEntries(out.map((r) => [r.id, r]));
    expect(out.map((r) => r.id)).toEqual(["named", "other", "reply"]);
    expect(byId.named!.score).toBeCloseTo(0.5 + 0.1 * 0.5, 6);
    expect(byId.named!.scores.entity).toBe(1);
    expect(byId.reply!.scores.thread).toBeCloseTo(0.55, 6);
    expect(withEntity(0.5, 1, 0)).toBe(0.5);
    expect(rank([{ id: "a", semantic: 0.5, lexical: 0.5 }], 1, 0)[0]!.scores.entity).toBeNull();
  });

  test("the parameters are injectable: another setting ranks otherwise", () => {
    const candidates = [
      { id: "semantic", semantic: 0.9, lexical: 0 },
      { id: "lexical", semantic: 0, lexical: 0.8 },
    ];
    const order = (semanticWeight: number) =>
      rank(candidates, 2, 0, { semanticWeight, threadWeight: 0, entityWeight: 0, chunkDiscount: 0, peakWidth: 0 }).map(
        (r) => r.id,
      );
    expect(order(0.7)).toEqual(["semantic", "lexical"]);
    expect(order(0.3)).toEqual(["lexical", "semantic"]);
  });

  test("a memory borrows from its best neighbour in the thread (previous or next sibling)", () => {
    const out = rank(
      [
        { id: "question", semantic: 0.8, lexical: 0.8 },
        { id: "answer", semantic: 0.2, lexical: 0, prev: "question" },
        { id: "unrelated", semantic: 0.2, lexical: 0 },
        { id: "after", semantic: 0.1, lexical: 0, prev: "answer" },
      ],
      10,
      0,
      { semanticWeight: 0.5, threadWeight: 0.5, entityWeight: 0, chunkDiscount: 0, peakWidth: 0 },
    );
    const byId = Object.fromEntries(out.map((r) => [r.id, r]));
    expect(byId.answer!.scores.thread).toBe(0.8);
    expect(byId.answer!.score).toBeCloseTo(withThread(0.1, 0.8, 0.5), 6);
    expect(byId.question!.scores.thread).toBeCloseTo(0.1, 6);
    expect(byId.after!.scores.thread).toBeCloseTo(0.1, 6);
    expect(byId.unrelated!.scores.thread).toBe(0);
    expect(out.map((r) => r.id)).toEqual(["question", "answer", "unrelated", "after"]);
  });

  test("a memory of several chunks has its best chunk's cosine discounted by δ · ln chunks", () => {
    const params = { semanticWeight: 1, threadWeight: 0, entityWeight: 0, chunkDiscount: 0.1, peakWidth: 0 };
    const candidates = [
      { id: "long", semantic: 0.62, lexical: 0, chunks: 8 },
      { id: "turn", semantic: 0.6, lexical: 0 },
    ];
    const out = rank(candidates, 2, 0, params);
    expect(out.map((r) => r.id)).toEqual(["turn", "long"]);
    expect(out[1]!.score).toBeCloseTo(0.62 - 0.1 * Math.log(8), 6);
    // The reported part stays the cosine; without the discount the long memory's best chunk wins.
    expect(out[1]!.scores.semantic).toBe(0.62);
    expect(rank(candidates, 2, 0, { ...params, chunkDiscount: 0, peakWidth: 0 }).map((r) => r.id)).toEqual([
      "long",
      "turn",
    ]);
    const flat = { chunkDiscount: 0.1, peakWidth: 0 };
    expect(fittedSemantic({ semantic: 0.1, chunks: 7 }, flat)).toBe(0);
    expect(fittedSemantic({ semantic: 0.5, chunks: 1 }, flat)).toBe(0.5);
    // A document's discount stops at DISCOUNTED_CHUNKS_MAX chunks.
    expect(fittedSemantic({ semantic: 0.5, chunks: 100 }, flat)).toBeCloseTo(
      0.5 - 0.1 * Math.log(DISCOUNTED_CHUNKS_MAX),
      12,
    );
  });

  test("a long memory whose best chunk stands out of its runner-up keeps its cosine (τ)", () => {
    const params = { semanticWeight: 1, threadWeight: 0, entityWeight: 0, chunkDiscount: 0.15, peakWidth: 0.15 };
    // A passage deep in a document: one chunk matches, the others hardly (the long-memory test's figures).
    const document = { id: "document", semantic: 0.3, lexical: 0, chunks: 115, runnerUp: 0.11 };
    const unrelated = { id: "unrelated", semantic: 0.14, lexical: 0 };
    expect(rank([document, unrelated], 2, 0, params).map((r) => r.id)).toEqual(["document", "unrelated"]);
    expect(fittedSemantic(document, params)).toBe(0.3);
    // Without the runner-up's cosine (or with τ 0), the discount is whole and buries the passage.
    expect(rank([{ ...document, runnerUp: undefined }, unrelated], 2, 0, params)[0]!.id).toBe("unrelated");
    expect(rank([document, unrelated], 2, 0, { ...params, peakWidth: 0 })[0]!.id).toBe("unrelated");
    // A long reply whose chunks all match alike is discounted almost whole: the turn saying the same wins.
    const reply = { id: "reply", semantic: 0.62, lexical: 0, chunks: 8, runnerUp: 0.6 };
    const turn = { id: "turn", semantic: 0.6, lexical: 0 };
    expect(rank([reply, turn], 2, 0, params).map((r) => r.id)).toEqual(["turn", "reply"]);
    expect(fittedSemantic(reply, params)).toBeCloseTo(0.62 - 0.15 * Math.log(8) * (1 - 0.02 / 0.15), 12);
  });

  test("a neighbour that is not a candidate adds nothing", () => {
    expect(rank([{ id: "x", semantic: 0.4, lexical: 0.4, prev: "elsewhere" }], 1, 0)[0]!.scores.thread).toBe(0);
  });
});
