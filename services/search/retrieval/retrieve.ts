import type { Space } from "../../kit/keyspace";
import { MATCH_ALL } from "../../contract/search";
import { embeddingText, type Embedder } from "../embedder";
import { hasFilters, toFilterSpec, toVsimFilter, type FilterInput } from "../filters";
import { cosineInt8, idf, normaliseBm25, rank, semanticFromVsim, type Candidate } from "../ranking";
import { queryTerms } from "../text";
import type { Hit, ReadStore } from "../store";

export interface RetrieveRequest {
  query: string;
  limit: number;
  threshold: number;
  filters: FilterInput;
}

export interface Retrieved {
  id: string;
  score: number;
  scores: { semantic: number | null; lexical: number | null; thread: number | null };
}

/** More query terms than this add nothing but cost (a pasted document as a query). */
export const MAX_QUERY_TERMS = 64;

/** Each side (vector, lexical) proposes this many candidates; fusion then ranks their union exactly. */
export const candidateCount = (limit: number) => Math.min(200, Math.max(30, 3 * limit));

/**
 * VSIM visits at most FILTER-EF nodes looking for matches (default COUNT × 100). With a selective
 * filter that is too few: we know how many memories pass the filter (exactly, from the filter
 * sets), so we let it visit as many nodes as it takes to meet `count` of them on average, twice over.
 */
export function filterEffort(count: number, passing: number, total: number): number {
  const expected = passing > 0 ? Math.ceil((2 * count * total) / passing) : total;
  return Math.max(count * 100, Math.min(total, expected));
}

/**
 * VSIM's own FILTER walks the graph evaluating every visited node's attributes: ~3× the time of an
 * unfiltered search at 100,000 memories for a 1-in-3 filter, ~5× for 1-in-10. When a large enough
 * share passes a lone filter set, asking for proportionally more neighbours without a filter and
 * keeping those in the set is cheaper; up to this many neighbours (see oversampleCount).
 */
export const OVERSAMPLE_MAX = 600;

/**
 * How many neighbours an oversampled search asks for: enough that two thirds of k pass the filter
 * on average (two per result for limit ≥ 10: fusion still has the lexical side's k). At 100,000
 * memories VSIM's time grows steeply with the count (1.2 ms for 200, 2.0 ms for 300 here), and
 * the kept neighbours are what the query pays for. Fewer than half of the aim passing means the
 * filter and the query are at odds: VSIM FILTER then.
 */
export const oversampleAim = (k: number) => Math.ceil((2 * k) / 3);
export const oversampleCount = (k: number, vectors: number, passing: number) =>
  Math.ceil((oversampleAim(k) * vectors) / passing);

export interface RetrieverDeps {
  reads: ReadStore;
  embedder: Embedder;
  modelId: string;
}

/** The ranked ids (and scores) of a query: candidates from both indexes, parts completed, fused. */
export function createRetriever(deps: RetrieverDeps) {
  const { reads, embedder, modelId } = deps;

  return async function retrieve(space: Space, req: RetrieveRequest): Promise<Retrieved[]> {
    const spec = toFilterSpec(req.filters);
    if (req.query.trim() === MATCH_ALL) {
      const { hits } = await reads.candidates(space, "browse", req.limit, spec, []);
      return hits.map((h) => ({ id: h.id, score: 1, scores: { semantic: null, lexical: null, thread: null } }));
    }

    const k = candidateCount(req.limit);
    const terms = queryTerms(req.query).slice(0, MAX_QUERY_TERMS);
    // An embedder failure degrades the query to lexical ranking instead of failing it.
    const vectorP = embedder.embed([embeddingText(req.query)]).then(
      (v) => v[0]!,
      () => null,
    );
    const stats = await reads.termStats(space, terms, modelId, spec);
    const weighted: [string, number][] = [];
    terms.forEach((t, i) => stats.df[i]! > 0 && weighted.push([t, idf(stats.n, stats.df[i]!)]));
    const idfSum = weighted.reduce((s, [, w]) => s + w, 0);

    const filter = toVsimFilter(spec);
    const lexP = reads.candidates(space, "lex", k, spec, weighted);
    // What fusion needs of the lexical candidates (stored vectors, previous turns) does not depend
    // on the query's vector: it is read while the model is still running.
    const lexExtrasP = lexP.then(({ hits }) => {
      const ids = hits.map((h) => h.id);
      return reads.complete(space, modelId, [], [], stats.vectors > 0 ? ids : [], ids);
    });
    lexExtrasP.catch(() => undefined); // awaited below; not an unhandled rejection if we return first
    let effort: number | undefined;
    let oversample: number | undefined;
    let everyPassing: string[] = [];
    if (hasFilters(spec)) {
      // Known up front for a lone filter set: then the vector search need not wait for the lexical one.
      const count = stats.passing ?? (await lexP).count;
      if (count === 0) return [];
      // Few memories pass the filters: rank all of them exactly instead of searching the graph.
      const neighboursNeeded = stats.passing !== null ? oversampleCount(k, stats.vectors, count) : Infinity;
      if (count <= k) everyPassing = (await reads.candidates(space, "browse", k, spec, [])).hits.map((h) => h.id);
      else if (neighboursNeeded <= OVERSAMPLE_MAX) oversample = neighboursNeeded;
      else effort = filterEffort(k, count, stats.vectors);
    }
    const vector = await vectorP;
    const searchGraph = vector !== null && stats.vectors > 0 && everyPassing.length === 0;
    const nearest = async (): Promise<Hit[]> => {
      if (!oversample) return reads.nearest(space, modelId, vector!, k, filter, effort);
      const wide = await reads.nearest(space, modelId, vector!, oversample, null);
      const pass = await reads.passLoneFilter(
        space,
        spec,
        wide.map((h) => h.id),
      );
      const kept = wide.filter((_, i) => pass[i]).slice(0, k);
      // The filter and the query are at odds (few of the nearest pass it): search with the filter.
      return kept.length >= oversampleAim(k) / 2
        ? kept
        : reads.nearest(space, modelId, vector!, k, filter, filterEffort(k, stats.passing!, stats.vectors));
    };
    const [lex, near] = await Promise.all([lexP, searchGraph ? nearest() : []]);

    const semantic = new Map(near.map((h) => [h.id, semanticFromVsim(h.score)]));
    const bm25 = new Map(lex.hits.map((h) => [h.id, h.score]));
    const ids = [...new Set([...semantic.keys(), ...bm25.keys(), ...everyPassing])];
    if (ids.length === 0) return [];
    // The rest (vector-only candidates, and every passing memory of a small filter) is read now.
    const rest = ids.filter((id) => !bm25.has(id));
    const lexicalFor = weighted.length > 0 ? rest : [];
    const vectorsFor = vector !== null && stats.vectors > 0 ? rest.filter((id) => !semantic.has(id)) : [];
    const [lexExtras, more] = await Promise.all([
      lexExtrasP,
      reads.complete(
        space,
        modelId,
        weighted.map(([t]) => t),
        lexicalFor,
        vectorsFor,
        rest,
      ),
    ]);
    lexicalFor.forEach((id, j) => {
      const score = weighted.reduce((s, [, w], t) => s + w * (more.weights[t]![j] ?? 0), 0);
      bm25.set(id, score);
    });
    if (vector !== null) {
      for (const vectors of [lexExtras.vectors, more.vectors]) {
        for (const [id, v] of vectors) if (!semantic.has(id)) semantic.set(id, Math.max(0, cosineInt8(vector, v)));
      }
    }
    const prev = new Map([...lexExtras.prev, ...more.prev]);

    const candidates: Candidate[] = ids.map((id) => ({
      id,
      semantic: semantic.get(id) ?? 0,
      lexical: normaliseBm25(bm25.get(id) ?? 0, idfSum),
      prev: prev.get(id),
    }));
    return rank(candidates, req.limit, req.threshold);
  };
}

export type Retrieve = ReturnType<typeof createRetriever>;
