/**
 * How a candidate's parts become one `score` in 0..1 (the `threshold` applies to it):
 *
 *   semantic = max(0, cosine(query, memory))                 VSIM gives (1 + cos) / 2, hence 2s − 1
 *   fitted   = max(0, semantic − δ · ln min(chunks, 8) · f)  δ = CHUNK_DISCOUNT; chunks: the memory's vectors
 *              f = max(0, 1 − (semantic − runnerUp) / τ)      τ = PEAK_WIDTH; runnerUp: runner-up.ts
 *   lexical  = min(1, BM25 / Σ idf(query terms))             bm25.ts `normaliseBm25`
 *   entity   = share of the query's names in its postings     names: capitalised words past the first
 *   match    = m + ε · entity · (1 − m),                       ε = ENTITY_WEIGHT
 *              m = α · fitted + (1 − α) · lexical              α = SEMANTIC_WEIGHT
 *   thread   = max(match of the previous / next sibling)      0 when neither is a candidate
 *   score    = match + β · thread · (1 − match)               β = THREAD_WEIGHT
 *
 * The thread term lets a turn borrow relevance from the turns around it (a question and its answer
 * share little vocabulary); `(1 − match)` keeps the score ≤ 1 and lets it matter less for strong
 * matches. A long memory embedded in n chunks scores as its best chunk, the best of n draws: `fitted` takes
 * back what those extra draws give, so a long reply does not outrank a one-chunk turn that says the same
 * (results still report the cosine as `semantic`). It stops growing at 8 chunks (~3,000 characters, the
 * longest chat turns), and it shrinks as the best chunk stands out of its runner-up (runner-up.ts), to nothing
 * at a gap of τ: a passage deep in a document matches in one place and keeps its cosine, a reply on the
 * query's topic matches throughout and is discounted whole.
 * The entity term favours, among memories that match alike, those naming whom the query names.
 * α, β, ε, δ and τ are the setting chosen on LoCoMo and LongMemEval at once, by cross-validation over both
 * (docs/search.md): LoCoMo alone prefers α 0.55, β 0.9 (its answer is often the turn after the match),
 * LongMemEval alone α 0.7, β 0 (the turns beside a match are mostly an assistant's long replies).
 */
export const SEMANTIC_WEIGHT = 0.65;
export const THREAD_WEIGHT = 0.5;
export const ENTITY_WEIGHT = 0.1;
export const CHUNK_DISCOUNT = 0.15;
export const PEAK_WIDTH = 0.15;
/** The chunk count past which δ's discount stops growing. */
export const DISCOUNTED_CHUNKS_MAX = 8;

/**
 * The ranking's tunable parameters. The service ranks with `RANKING`; the retrieval benchmarks' folds
 * (test/bench/folds.ts) choose among other settings by calling `rank` with them. They are not a request option.
 */
export interface RankingParams {
  /** α above. */
  semanticWeight: number;
  /** β above. */
  threadWeight: number;
  /** ε above. */
  entityWeight: number;
  /** δ above. */
  chunkDiscount: number;
  /** τ above. */
  peakWidth: number;
}

export const RANKING: RankingParams = {
  semanticWeight: SEMANTIC_WEIGHT,
  threadWeight: THREAD_WEIGHT,
  entityWeight: ENTITY_WEIGHT,
  chunkDiscount: CHUNK_DISCOUNT,
  peakWidth: PEAK_WIDTH,
};

export const semanticFromVsim = (vsimScore: number) => Math.max(0, Math.min(1, 2 * vsimScore - 1));

/**
 * The semantic part of a memory embedded in `chunks` vectors: its best chunk's cosine less δ · ln chunks (capped),
 * times how little the best chunk stands out of its runner-up (runner-up.ts): 1 − gap / τ, floored at 0.
 */
export function fittedSemantic(
  c: { semantic: number; chunks?: number; runnerUp?: number },
  params: Pick<RankingParams, "chunkDiscount" | "peakWidth"> = RANKING,
): number {
  const chunks = c.chunks ?? 1;
  if (chunks <= 1 || params.chunkDiscount === 0) return c.semantic;
  const gap = c.runnerUp === undefined ? 0 : Math.max(0, c.semantic - c.runnerUp);
  const flat = params.peakWidth > 0 ? Math.max(0, 1 - gap / params.peakWidth) : 1;
  const discount = params.chunkDiscount * Math.log(Math.min(chunks, DISCOUNTED_CHUNKS_MAX)) * flat;
  return Math.max(0, c.semantic - discount);
}

export const matchScore = (semantic: number, lexical: number, alpha = SEMANTIC_WEIGHT) =>
  alpha * semantic + (1 - alpha) * lexical;

export const withEntity = (match: number, entity: number, epsilon = ENTITY_WEIGHT) =>
  match + epsilon * entity * (1 - match);

export const withThread = (match: number, thread: number, beta = THREAD_WEIGHT) => match + beta * thread * (1 - match);

/** Cosine between a float query and an int8-quantized stored vector (scale cancels out). */
export function cosineInt8(query: Float32Array, stored: Int8Array): number {
  let dot = 0;
  let qq = 0;
  let ss = 0;
  for (let i = 0; i < query.length; i++) {
    const q = query[i]!;
    const s = stored[i] ?? 0;
    dot += q * s;
    qq += q * q;
    ss += s * s;
  }
  return qq > 0 && ss > 0 ? dot / Math.sqrt(qq * ss) : 0;
}
