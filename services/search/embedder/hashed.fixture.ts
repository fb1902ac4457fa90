import type { Embedder } from "./embedder";

/** The dimensions of the hashed fake model: small, so tests build vectors by hand beside it. */
export const HASHED_DIMS = 16;
/** The model id its vectors are indexed under. */
export const HASHED_MODEL = `fake-${HASHED_DIMS}`;

/** A deterministic fake model for tests: a text's unit vector is seeded by its hash, so equal texts embed alike. */
export const hashedVectorOf = (text: string): Float32Array => {
  let seed = Number(Bun.hash(text) % 2147483647n) || 1;
  const v = Float32Array.from(
    { length: HASHED_DIMS },
    () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1,
  );
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

export const hashedEmbedder: Embedder = {
  model: "fake",
  dimensions: HASHED_DIMS,
  embed: async (texts) => texts.map(hashedVectorOf),
};
