/**
 * How a candidate is scored (ranking tuning lives here and only here): BM25 for the lexical part
 * (bm25.ts; its term weights are stored by ../lua/common.lua), cosine for the semantic part, and one
 * formula that fuses them with the thread neighbours' (fusion.ts), applied by rank.ts.
 */
export { B, CONTEXT_WEIGHT, idf, K1, normaliseBm25 } from "./bm25";
export { cosineInt8, RANKING, semanticFromVsim, type RankingParams } from "./fusion";
export { rank, type Candidate, type Ranked } from "./rank";
export { runnerUp } from "./runner-up";
