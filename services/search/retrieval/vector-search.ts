import type { Space } from "../../kit/space";
import { toVsimFilter, type FilterSpec } from "../filters";
import type { Hit, ReadStore } from "../store";

/**
 * The vector side of a query: which memories' vectors are compared with the query's. Every strategy
 * aims at the k nearest memories that pass the filters; they differ in what that costs Redis, and are
 * chosen by the numbers below (latency tuning). How candidates are scored is ../ranking's business.
 */

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

/** How the vector side runs for one query (see chooseVectorSearch). */
export type VectorSearch =
  | { strategy: "nearest" }
  | { strategy: "every-passing"; ids: string[] }
  | { strategy: "oversampled"; count: number }
  | { strategy: "filtered"; effort?: number };

/** One query's vector side: where, which model, how many (k), and what passes. */
export interface VectorQuery {
  reads: ReadStore;
  space: Space;
  modelId: string;
  k: number;
  spec: FilterSpec;
  /** Vectors of the model in the index (a long memory has one per chunk). */
  vectors: number;
  /** Memories in the index. */
  memories: number;
  /** How many memories pass a lone filter set (known before any search), else null. */
  lonePassing: number | null;
}

/**
 * Picks the strategy for a filtered query, given how many memories pass its filters (`passing` > 0):
 * few enough to rank them all, a lone filter set broad enough to oversample, else VSIM FILTER.
 */
export async function chooseVectorSearch(q: VectorQuery, passing: number): Promise<VectorSearch> {
  if (passing <= q.k) {
    const ids = await everyPassingMemory(q);
    // None left (deleted since they were counted): the graph with the filter finds what there is.
    return ids.length > 0 ? { strategy: "every-passing", ids } : { strategy: "filtered" };
  }
  const neighboursNeeded = q.lonePassing !== null ? oversampleCount(q.k, q.vectors, passing) : Infinity;
  if (neighboursNeeded <= OVERSAMPLE_MAX) return { strategy: "oversampled", count: neighboursNeeded };
  return { strategy: "filtered", effort: filterEffort(q.k, passing, q.vectors) };
}

/** Runs a graph search (every strategy but every-passing, whose memories are known without one). */
export function searchGraph(
  q: VectorQuery,
  search: Exclude<VectorSearch, { strategy: "every-passing" }>,
  vector: Float32Array,
): Promise<Hit[]> {
  if (search.strategy === "nearest") return nearestNeighbours(q, vector);
  if (search.strategy === "oversampled") return oversampledNearest(q, vector, search.count);
  return nearestPassingFilter(q, vector, search.effort);
}

/**
 * Several chunks of one memory can be among the nearest vectors, each taking a place of VSIM's count: it asks
 * for as many more vectors as the index holds per memory, at most this many times k.
 */
export const MAX_VECTORS_PER_CANDIDATE = 3;
export const vectorCount = (k: number, vectors: number, memories: number) =>
  Math.min(MAX_VECTORS_PER_CANDIDATE * k, Math.ceil(k * Math.max(1, vectors / Math.max(1, memories))));

/** No filter: the k nearest memories. */
async function nearestNeighbours(q: VectorQuery, vector: Float32Array): Promise<Hit[]> {
  const count = vectorCount(q.k, q.vectors, q.memories);
  return (await q.reads.nearest(q.space, { modelId: q.modelId, vector, count, filter: null })).slice(0, q.k);
}

/** VSIM FILTER: the k nearest whose attributes pass the filters, visiting up to `effort` nodes. */
async function nearestPassingFilter(q: VectorQuery, vector: Float32Array, effort?: number): Promise<Hit[]> {
  const filter = toVsimFilter(q.spec);
  const count = vectorCount(q.k, q.vectors, q.memories);
  const near = await q.reads.nearest(q.space, { modelId: q.modelId, vector, count, filter, filterEffort: effort });
  return near.slice(0, q.k);
}

/**
 * A lone filter set that many memories pass: `count` nearest without a filter, those in the set kept.
 * When the filter and the query are at odds (few of the nearest pass it), VSIM FILTER instead.
 */
async function oversampledNearest(q: VectorQuery, vector: Float32Array, count: number): Promise<Hit[]> {
  const wide = await q.reads.nearest(q.space, { modelId: q.modelId, vector, count, filter: null });
  const pass = await q.reads.passLoneFilter(
    q.space,
    q.spec,
    wide.map((h) => h.id),
  );
  const kept = wide.filter((_, i) => pass[i]).slice(0, q.k);
  if (kept.length >= oversampleAim(q.k) / 2) return kept;
  return nearestPassingFilter(q, vector, filterEffort(q.k, q.lonePassing!, q.vectors));
}

/** Few memories pass the filters: all of them (newest first), to be ranked exactly; no graph search. */
async function everyPassingMemory(q: VectorQuery): Promise<string[]> {
  const { hits } = await q.reads.candidates(q.space, { mode: "browse", k: q.k, spec: q.spec });
  return hits.map((h) => h.id);
}
