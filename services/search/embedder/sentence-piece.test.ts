import { expect, test } from "bun:test";
import { EmbeddingsModel } from "@energetic-ai/embeddings";
import { query, sentence } from "../../../test/bench/sentences";
import { sentencePieceEncoder } from "./sentence-piece";
import { readUseLiteFiles } from "./use-lite-weights";

const { vocabulary } = readUseLiteFiles();
const packaged = (
  new EmbeddingsModel({ model: null as never, vocabulary }) as unknown as {
    tokenizer: { encode(text: string): number[] };
  }
).tokenizer;
const encode = sentencePieceEncoder(vocabulary);

/** A deterministic generator, so a failure names a text that can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

// Pieces of every kind the segmentation must get right: the vocabulary's own, unknown code points (runs of
// them collapse), astral ones (two UTF-16 units), spaces of every width (NFKC folds some), tabs and newlines.
const ODD = ["🎉", "😀😀", "中文", "\u00e9", "e\u0301", "\u00a0", "\u3000", "\t", "\n", "  ", "ﬁ", "Ⅻ", "\u2581", "�"];

function text(r: () => number): string {
  const parts: string[] = [];
  const length = Math.floor(r() * 40);
  for (let i = 0; i < length; i++) {
    const roll = r();
    if (roll < 0.55) parts.push(vocabulary[6 + Math.floor(r() * (vocabulary.length - 6))]![0].replace(/\u2581/g, " "));
    else if (roll < 0.7) parts.push(ODD[Math.floor(r() * ODD.length)]!);
    else if (roll < 0.85) parts.push(String.fromCodePoint(0x20 + Math.floor(r() * 0x2fff)));
    else parts.push(" ");
  }
  return parts.join(r() < 0.5 ? "" : " ");
}

test("gives the package's tokens for sentences, edge cases and random mixes of pieces and code points", () => {
  const texts = [
    "",
    " ",
    "Hi",
    "What did Caroline tell Melanie about the adoption agency?",
    "Ünïcödé tèxt — with emoji 🎉 and 中文 too",
    "🎉🎉🎉 unknown runs ☃☃ collapse",
    Array.from({ length: 200 }, (_, i) => `token${i}`).join(" "),
    ...Array.from({ length: 200 }, (_, i) => sentence(i)),
    ...Array.from({ length: 100 }, (_, i) => query(i)),
  ];
  const r = random(20261202);
  for (let i = 0; i < 3000; i++) texts.push(text(r));
  const mismatched = texts.filter((t) => JSON.stringify(encode(t)) !== JSON.stringify(packaged.encode(t)));
  expect(mismatched).toEqual([]);
});
