import type { Space } from "../../kit/space";
import { MATCH_ALL } from "../../contract/search";
import { embeddingText, type Embedder } from "../embedder";
import { hasFilters, toFilterSpec, type FilterInput, type FilterSpec } from "../filters";
import { cosineInt8, idf, normaliseBm25, rank, runnerUp, semanticFromVsim, type Candidate } from "../ranking";
import { queryNames, queryTerms } from "../text";
import type { Hit, ReadStore, ThreadPlace } from "../store";
import { chooseVectorSearch, searchGraph, type VectorQuery, type VectorSearch } from "./vector-search";
import { EXPANSION_READ, propose, type Expansion, type Proposed } from "./expand";
import { feedbackHits } from "./feedback";

export interface RetrieveRequest {
  query: string;
  limit: number;
  threshold: number;
  filters: FilterInput;
}

export interface Retrieved {
  id: string;
  score: number;
  scores: { semantic: number | null; lexical: number | null; thread: number | null; entity: number | null };
}

/** More query terms than this add nothing but cost (a pasted document as a query). */
export const MAX_QUERY_TERMS = 64;

/** What the service adds to a query's candidates from their threads (expand.ts), as the folds chose it. */
export const EXPANSION: Expansion = { neighbours: 0, threads: 0, feedback: 0 };

/** Each side (vector, lexical) proposes this many candidates; fusion then ranks their union exactly. */
export const candidateCount = (limit: number) => Math.min(200, Math.max(30, 3 * limit));

export interface RetrieverDeps {
  reads: ReadStore;
  embedder: Embedder;
  modelId: string;
}

/** The ranked ids (and scores) of a query: candidates from both indexes, parts completed, fused. */
export function createRetriever(deps: RetrieverDeps) {
  return async function retrieve(space: Space, req: RetrieveRequest): Promise<Retrieved[]> {
    const spec = toFilterSpec(req.filters);
    if (req.query.trim() === MATCH_ALL) return newestFirst(deps.reads, space, spec, req.limit);
    return rank(await matchCandidates(deps, space, req, spec, EXPANSION), req.limit, req.threshold);
  };
}

export type Retrieve = ReturnType<typeof createRetriever>;

/**
 * A query's candidates with their parts, before ranking (not for `*`): the retrieval benchmarks read them
 * once per question and rank them with each setting of the ranking's parameters they compare. They read
 * with the largest expansion (EXPANSION_READ); an added candidate says why (`proposed`), so a smaller one
 * is chosen offline.
 */
export function createCandidateReader(deps: RetrieverDeps) {
  return (space: Space, req: Omit<RetrieveRequest, "threshold">): Promise<(Candidate & { proposed?: Proposed })[]> =>
    matchCandidates(deps, space, req, toFilterSpec(req.filters), EXPANSION_READ);
}

/**
 * The `*` query: the newest memories that pass the filters, unscored. Expired memories the memories
 * service has not purged yet are left out, reading further as many as were left out.
 */
async function newestFirst(reads: ReadStore, space: Space, spec: FilterSpec, limit: number): Promise<Retrieved[]> {
  let kept: string[] = [];
  for (let k = limit; ; ) {
    const { hits } = await reads.candidates(space, { mode: "browse", k, spec });
    const expired = await reads.expiredAmong(
      space,
      hits.map((h) => h.id),
    );
    kept = hits.filter((h) => !expired.has(h.id)).map((h) => h.id);
    if (kept.length >= limit || hits.length < k) break;
    k += expired.size;
  }
  return kept
    .slice(0, limit)
    .map((id) => ({ id, score: 1, scores: { semantic: null, lexical: null, thread: null, entity: null } }));
}

/**
 * A query proper: the lexical and the vector side each propose candidates (the vector side's
 * strategy chosen in vector-search.ts), each candidate gets the part the other side did not give it,
 * ready for ../ranking to fuse the parts. The stages overlap: the model runs while Redis counts and ranks.
 */
async function matchCandidates(
  deps: RetrieverDeps,
  space: Space,
  req: Omit<RetrieveRequest, "threshold">,
  spec: FilterSpec,
  expansion: Expansion,
): Promise<(Candidate & { proposed?: Proposed })[]> {
  const { reads, embedder, modelId } = deps;
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

  // Some memories have several vectors (chunks of a long content): a stored vector read is every chunk's.
  const chunked = stats.vectors > stats.n;
  const { lexP, lexExtrasP } = lexicalCandidates(reads, space, {
    modelId,
    k,
    spec,
    weighted,
    vectors: stats.vectors,
    chunked,
  });
  const vq: VectorQuery = {
    reads,
    space,
    modelId,
    k,
    spec,
    vectors: stats.vectors,
    memories: stats.n,
    lonePassing: stats.passing,
  };
  let search: VectorSearch = { strategy: "nearest" };
  if (hasFilters(spec)) {
    // Known up front for a lone filter set: then the vector search need not wait for the lexical one.
    const passing = stats.passing ?? (await lexP).count;
    if (passing === 0) return [];
    search = await chooseVectorSearch(vq, passing);
  }
  const vector = await vectorP;
  const near =
    vector !== null && stats.vectors > 0 && search.strategy !== "every-passing"
      ? searchGraph(vq, search, vector)
      : ([] as Hit[]);
  const [lex, nearest] = await Promise.all([lexP, near]);

  const parts: Parts = {
    semantic: new Map(nearest.map((h) => [h.id, semanticFromVsim(h.score)])),
    chunkCosines: new Map(
      nearest.map((h) => [
        h.id,
        {
          seen: (h.chunkScores ?? []).map(([i, s]): [number, number] => [i, semanticFromVsim(s)]),
          bound: semanticFromVsim(h.lowest ?? 0),
        },
      ]),
    ),
    bm25: new Map(lex.hits.map((h) => [h.id, h.score])),
    prev: new Map(),
    place: new Map(),
    entity: new Map(),
    chunks: new Map(),
  };
  const everyPassing = search.strategy === "every-passing" ? search.ids : [];
  let ids = [...new Set([...parts.semantic.keys(), ...parts.bm25.keys(), ...everyPassing])];
  // Memories past their expires_at (not purged yet) are no candidates: not a result, nobody's neighbour.
  if (stats.expired > 0) {
    const expired = await reads.expiredAmong(space, ids);
    ids = ids.filter((id) => !expired.has(id));
  }
  if (ids.length === 0) return [];
  const names = queryNames(req.query).slice(0, MAX_QUERY_TERMS);
  const query = { reads, space, modelId, weighted, names, vector, vectors: stats.vectors, chunked };
  await completeParts(query, ids, parts, lexExtrasP);

  const idfSum = weighted.reduce((s, [, w]) => s + w, 0);
  const candidate = (id: string): Candidate => ({
    id,
    semantic: parts.semantic.get(id) ?? 0,
    lexical: normaliseBm25(parts.bm25.get(id) ?? 0, idfSum),
    prev: parts.prev.get(id),
    entity: names.length > 0 ? (parts.entity.get(id) ?? 0) : undefined,
    chunks: parts.chunks.get(id),
    runnerUp: runnerUpOf(parts, id),
  });
  const first = ids.map(candidate);
  // An added memory must pass the query's filters: done for none or a lone filter set, the common cases.
  const expands = expansion.neighbours > 0 || expansion.threads > 0 || expansion.feedback > 0;
  if (!expands || (hasFilters(spec) && stats.passing === null)) return first;
  const [proposed, fed] = await Promise.all([
    propose(reads, space, first, parts.place, expansion),
    expansion.feedback > 0 && vector !== null && search.strategy !== "every-passing"
      ? feedbackHits(vq, search, vector, first, chunked)
      : new Map<string, number>(),
  ]);
  for (const [id, at] of fed) if (at < expansion.feedback) proposed.set(id, { ...proposed.get(id), feedback: at });
  let added = [...proposed.keys()];
  if (hasFilters(spec) && added.length > 0) {
    const pass = await reads.passLoneFilter(space, spec, added);
    added = added.filter((_, i) => pass[i]);
  }
  if (stats.expired > 0 && added.length > 0) {
    const expired = await reads.expiredAmong(space, added);
    added = added.filter((id) => !expired.has(id));
  }
  if (added.length === 0) return first;
  await completeParts(query, added, parts, Promise.resolve(NOTHING_READ));
  return [...first, ...added.map((id) => ({ ...candidate(id), proposed: proposed.get(id) }))];
}

const NOTHING_READ: Completion = {
  weights: [],
  vectors: new Map(),
  prev: new Map(),
  place: new Map(),
  chunks: new Map(),
  held: [],
};

/**
 * The lexical side: the k best by BM25 among memories passing the filters, and (read as soon as they
 * are known, while the model is still running: it does not depend on the query's vector) what fusion
 * needs of them: their stored vectors and previous siblings.
 */
function lexicalCandidates(
  reads: ReadStore,
  space: Space,
  q: { modelId: string; k: number; spec: FilterSpec; weighted: [string, number][]; vectors: number; chunked: boolean },
) {
  const lexP = reads.candidates(space, { mode: "lex", k: q.k, spec: q.spec, terms: q.weighted });
  const lexExtrasP = lexP.then(({ hits }) => {
    const ids = hits.map((h) => h.id);
    const vectorsFor = q.vectors > 0 ? ids : [];
    const chunked = q.chunked;
    return reads.complete(space, { modelId: q.modelId, terms: [], lexicalFor: [], vectorsFor, prevFor: ids, chunked });
  });
  lexExtrasP.catch(() => undefined); // awaited later; not an unhandled rejection if the query returns first
  return { lexP, lexExtrasP };
}

/**
 * What ranking takes of each candidate, by id: cosine (0..1), raw BM25, previous sibling, names held (0..1),
 * chunk count (when above one); and where it sits in its thread (for expand.ts).
 */
interface Parts {
  semantic: Map<string, number>;
  bm25: Map<string, number>;
  prev: Map<string, string>;
  place: Map<string, ThreadPlace>;
  entity: Map<string, number>;
  chunks: Map<string, number>;
  /**
   * A candidate's chunks known, [index, cosine], and a bound above the others: those the vector search returned,
   * or every chunk when its vectors were read (bound 0).
   */
  chunkCosines: Map<string, { seen: [number, number][]; bound: number }>;
}

/** A candidate's runner-up chunk's cosine (ranking/runner-up.ts), once its chunk count is known. */
function runnerUpOf(parts: Parts, id: string): number | undefined {
  const known = parts.chunkCosines.get(id);
  return known ? runnerUp(parts.chunks.get(id) ?? 1, known.seen, known.bound) : undefined;
}

type Completion = Awaited<ReturnType<ReadStore["complete"]>>;

/**
 * Fills in what the side that proposed a candidate did not give it, in one read: the BM25 of
 * candidates only the vector side (or a small filter) proposed, from their postings; the cosine of
 * candidates the graph search did not return, from their stored vectors; every candidate's previous
 * sibling and chunk count; and which of the query's names each candidate's postings hold. `lexExtras`
 * holds the lexical candidates' vectors and siblings, read ahead.
 */
async function completeParts(
  q: {
    reads: ReadStore;
    space: Space;
    modelId: string;
    weighted: [string, number][];
    names: string[];
    vector: Float32Array | null;
    vectors: number;
    chunked: boolean;
  },
  ids: string[],
  parts: Parts,
  lexExtras: Promise<Completion>,
): Promise<void> {
  const { semantic, bm25 } = parts;
  const rest = ids.filter((id) => !bm25.has(id));
  const lexicalFor = q.weighted.length > 0 ? rest : [];
  const vectorsFor = q.vector !== null && q.vectors > 0 ? rest.filter((id) => !semantic.has(id)) : [];
  const terms = q.weighted.map(([t]) => t);
  const [early, more] = await Promise.all([
    lexExtras,
    q.reads.complete(q.space, {
      modelId: q.modelId,
      chunked: q.chunked,
      terms,
      lexicalFor,
      vectorsFor,
      prevFor: rest,
      names: q.names,
      namesFor: q.names.length > 0 ? ids : [],
    }),
  ]);
  lexicalFor.forEach((id, j) => {
    const score = q.weighted.reduce((s, [, w], t) => s + w * (more.weights[t]![j] ?? 0), 0);
    bm25.set(id, score);
  });
  if (q.vector !== null) {
    for (const vectors of [early.vectors, more.vectors]) {
      for (const [id, chunks] of vectors) {
        if (semantic.has(id)) continue;
        // A memory of several chunks scores as its best one; its runner-up says how much the best stands out.
        const cosines = chunks.map((v, i): [number, number] => [i, Math.max(0, cosineInt8(q.vector!, v))]);
        semantic.set(id, Math.max(0, ...cosines.map(([, c]) => c)));
        if (cosines.length > 1) parts.chunkCosines.set(id, { seen: cosines, bound: 0 });
      }
    }
  }
  for (const [id, p] of [...early.prev, ...more.prev]) parts.prev.set(id, p);
  for (const [id, p] of [...early.place, ...more.place]) parts.place.set(id, p);
  for (const [id, n] of [...early.chunks, ...more.chunks]) parts.chunks.set(id, n);
  ids.forEach((id, j) => {
    const held = more.held.reduce((n, row) => n + (row[j] ? 1 : 0), 0);
    if (held > 0) parts.entity.set(id, held / q.names.length);
  });
}
