import { rank, type Candidate } from "../ranking";
import { searchGraph, type VectorQuery, type VectorSearch } from "./vector-search";

/**
 * Pseudo-relevance feedback on the vector side (Rocchio): the query's vector moved toward the stored vectors of
 * its best first candidates finds memories near what the query matched, which the query alone may not reach (a
 * question's second fact shares the first one's context, not the question's words). What it finds is scored
 * against the original query like any candidate: feedback proposes, it never changes a score.
 */

/** How many of the best first candidates feed the query. */
export const FEEDBACK_FROM = 3;
/** How far the query moves toward their mean: 1 = halfway (both unit length). */
export const FEEDBACK_WEIGHT = 1;

/** The query moved toward the mean direction of `stored` (int8 vectors; their scales differ, so each is normed). */
export function feedbackVector(query: Float32Array, stored: Int8Array[], weight = FEEDBACK_WEIGHT): Float32Array {
  const out = new Float32Array(query.length);
  const add = (v: ArrayLike<number>, w: number) => {
    let norm = 0;
    for (let i = 0; i < out.length; i++) norm += (v[i] ?? 0) ** 2;
    if (norm === 0) return;
    const f = w / Math.sqrt(norm);
    for (let i = 0; i < out.length; i++) out[i]! += f * (v[i] ?? 0);
  };
  add(query, 1);
  for (const v of stored) add(v, weight / stored.length);
  return out;
}

/**
 * The memories the moved query finds that are not candidates yet, each with its rank among them (0 = best):
 * `Proposed.feedback`. Nothing when the query has no vector or the index has no vectors.
 */
export async function feedbackHits(
  vq: VectorQuery,
  search: Exclude<VectorSearch, { strategy: "every-passing" }>,
  query: Float32Array,
  first: Candidate[],
  chunked: boolean,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const top = rank(first, FEEDBACK_FROM, 0).map((r) => r.id);
  if (top.length === 0) return out;
  const { vectors } = await vq.reads.complete(vq.space, {
    modelId: vq.modelId,
    chunked,
    terms: [],
    lexicalFor: [],
    vectorsFor: top,
    prevFor: [],
  });
  const stored = top.flatMap((id) => vectors.get(id) ?? []);
  if (stored.length === 0) return out;
  const known = new Set(first.map((c) => c.id));
  for (const hit of await searchGraph(vq, search, feedbackVector(query, stored)))
    if (!known.has(hit.id)) out.set(hit.id, out.size);
  return out;
}
