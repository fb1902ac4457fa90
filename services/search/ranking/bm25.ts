/**
 * BM25 (Robertson/Spärck Jones), split so the index can store per-posting weights:
 *   score(q, d) = Σ_{t ∈ q} idf(t) · w(t, d)
 *   idf(t)      = ln(1 + (N − df + 0.5) / (df + 0.5))                       (always > 0)
 *   w(t, d)     = tf · (k1 + 1) / (tf + k1 · (1 − b + b · |d| / avgdl))     (stored in the term's zset)
 * `w` uses the tenant's avgdl at the time the document is indexed: avgdl moves slowly once a tenant
 * has a few hundred documents, and `reindex` recomputes every weight with the current value.
 */
export const K1 = 1.2;
export const B = 0.75;

/**
 * Lexical context: a memory's postings also hold its previous sibling's terms (same parent, by
 * created_at) at this weight, so a reply matches the words of the message it answers.
 * `w` and the context are computed where they are stored (lua/common.lua, `relex`).
 */
export const CONTEXT_WEIGHT = 0.5;

export const idf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * BM25 is unbounded; `lexical` must be in 0..1 to fuse and threshold. We divide by Σ idf of the
 * query terms, i.e. the score of a document of average length that holds every query term once,
 * and cap at 1: "the share of the query's information the document matches".
 */
export function normaliseBm25(score: number, idfSum: number): number {
  if (idfSum <= 0 || score <= 0) return 0;
  return Math.min(1, score / idfSum);
}
