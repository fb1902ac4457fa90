import { describe, expect, test } from "bun:test";
import { chunkChars, embeddingChunks, MAX_CHUNKS } from "./chunks";

describe("embedding chunks", () => {
  test("a content the model reads whole is one text, trimmed; blank content a placeholder", () => {
    expect(embeddingChunks("  a short sentence  ", 128)).toEqual(["a short sentence"]);
    expect(embeddingChunks(" \n ", 128)).toEqual(["(empty)"]);
  });

  test("a long content is covered in full by overlapping chunks that fit the model, cut between words", () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const chunks = embeddingChunks(words.join(" "), 128);
    expect(chunks.length).toBeGreaterThan(20);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(chunkChars(128));
    const seen = new Set(chunks.flatMap((c) => c.split(" ")));
    expect(words.every((w) => seen.has(w))).toBe(true);
    // Consecutive chunks share words (the overlap), and no word is cut in two.
    for (let i = 1; i < chunks.length; i++) expect(chunks[i - 1]!.split(" ").at(-1)).not.toBe("");
    const shared = chunks.slice(1).filter((c, i) => chunks[i]!.includes(c.split(" ")[0]!)).length;
    expect(shared).toBe(chunks.length - 1);
  });

  test("the chunk size follows the model's input length; a text without spaces is cut; the count is bounded", () => {
    expect(chunkChars(512)).toBeGreaterThan(3.9 * chunkChars(128));
    const solid = "x".repeat(10_000);
    const chunks = embeddingChunks(solid, 128);
    expect(chunks.every((c) => c.length === chunkChars(128) || c === chunks.at(-1))).toBe(true);
    expect(embeddingChunks("y ".repeat(600_000), 16).length).toBe(MAX_CHUNKS);
  });
});
