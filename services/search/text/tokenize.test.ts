import { describe, expect, test } from "bun:test";
import { queryNames, queryTerms, termFrequencies, tokenize, STOP_WORDS } from "./tokenize";

describe("tokenize", () => {
  test("lower-cases, drops stop words and stems", () => {
    expect(tokenize("The Dogs were running in the Parks")).toEqual(["dog", "run", "park"]);
  });

  test("possessives and contractions are one word; numbers stay", () => {
    expect(tokenize("Caroline's 3 cats didn't eat in 2023")).toEqual(["carolin", "3", "cat", "didnt", "eat", "2023"]);
    expect(tokenize("Mel’s")).toEqual(["mel"]);
  });

  test("splits on punctuation and symbols, keeps letters of any script", () => {
    expect(tokenize("e-mail: café@naïve.fr; Ünïcödé—straße")).toEqual([
      "e",
      "mail",
      "café",
      "naïv",
      "fr",
      "ünïcödé",
      "straße",
    ]);
  });

  test("full-width and compatibility characters are normalised (NFKC)", () => {
    expect(tokenize("ＡＢＣ ﬁsh")).toEqual(tokenize("abc fish"));
  });

  test("over-long tokens (ids, hashes) are not terms", () => {
    expect(tokenize(`ref ${"a".repeat(41)} ok`)).toEqual(["ref", "ok"]);
  });

  test("blank or stop-word-only text has no terms", () => {
    expect(tokenize("   ")).toEqual([]);
    expect(tokenize("and the of to")).toEqual([]);
    expect(STOP_WORDS.has("she")).toBe(true);
  });

  test("term frequencies and length count what remains", () => {
    const { tf, length } = termFrequencies("apples and apple pie");
    expect(Object.fromEntries(tf)).toEqual({ appl: 2, pie: 1 });
    expect(length).toBe(3);
  });

  test("query terms are distinct, in first-seen order", () => {
    expect(queryTerms("pie apple apples")).toEqual(["pie", "appl"]);
  });

  test("query names: capitalised words past the first, as terms, once each", () => {
    expect(queryNames("What did Caroline think of Melanie's painting in Paris?")).toEqual([
      "carolin",
      "melani",
      "pari",
    ]);
    expect(queryNames("Caroline and caroline went home")).toEqual([]);
    expect(queryNames("  When did Jon meet Gina and Jon?")).toEqual(["jon", "gina"]);
    expect(queryNames("What is LGBTQ about, and what do I think?")).toEqual([]);
  });
});
