import type { Space } from "../../kit/space";
import { rank, type Candidate } from "../ranking";
import type { ReadStore, ThreadPlace } from "../store";

/**
 * More candidates from the threads the first ones sit in. Both sides (lexical, vector) score a memory
 * by its own text, so a turn that answers a question in other words ("yes, the blue one") is found
 * only through the turn beside it, and a thread that matches a topic several times holds turns about
 * it that match it weakly. What this adds is ranked like any candidate: its own parts, and the thread
 * term from its neighbours.
 *
 * Each idea is a count, 0 turning it off: `npm run bench:longmemeval -- --folds` and `bench:locomo -- --folds`
 * read every question's candidates with the largest counts (EXPANSION_READ) and choose among smaller ones
 * offline, by the rank of what proposed each added candidate (`Proposed`).
 */
export interface Expansion {
  /** The previous and next sibling of the best `neighbours` candidates become candidates. */
  neighbours: number;
  /** Every turn of the `threads` threads whose candidates match best together becomes a candidate. */
  threads: number;
  /** The best `feedback` new hits of the query moved toward its best candidates (feedback.ts) become candidates. */
  feedback: number;
}

/** The counts the folds choose among; the service's are EXPANSION (retrieve.ts). */
export const EXPANSION_READ: Expansion = { neighbours: 20, threads: 3, feedback: 30 };

/** A thread's evidence: the sum of its best candidates' scores, this many (one strong match is no topic). */
export const THREAD_EVIDENCE_TURNS = 3;
/** A thread proposes at most this many turns (its first, in the thread's order). */
export const THREAD_TURNS_MAX = 100;

/**
 * Why a memory was added: the rank (0 = best) of the candidate it neighbours, of the thread that holds it, among
 * the feedback query's new hits.
 */
export interface Proposed {
  neighbour?: number;
  thread?: number;
  feedback?: number;
}

/** Whether a candidate added for `proposed` is one under the counts `x` (the folds' offline choice). */
export const keptBy = (proposed: Proposed, x: Expansion) =>
  (proposed.neighbour !== undefined && proposed.neighbour < x.neighbours) ||
  (proposed.thread !== undefined && proposed.thread < x.threads) ||
  (proposed.feedback !== undefined && proposed.feedback < x.feedback);

/**
 * The memories `x` adds to `candidates` (none already among them), with why. `place` holds where each
 * candidate sits in its thread (store `complete`); ranking the first candidates says which are strong.
 */
export async function propose(
  reads: Pick<ReadStore, "nextSiblings" | "threadMembers">,
  space: Space,
  candidates: Candidate[],
  place: Map<string, ThreadPlace>,
  x: Expansion,
): Promise<Map<string, Proposed>> {
  const ranked = rank(candidates, candidates.length, 0);
  const prevOf = new Map(candidates.map((c) => [c.id, c.prev]));
  const best = ranked.slice(0, x.neighbours).map((r) => r.id);
  const placed = best.filter((id) => place.has(id));
  const threads = topThreads(ranked, place, x.threads);
  const [next, members] = await Promise.all([
    reads.nextSiblings(
      space,
      placed.map((id) => place.get(id)!),
    ),
    reads.threadMembers(space, threads, THREAD_TURNS_MAX),
  ]);
  const nextOf = new Map(placed.map((id, i) => [id, next[i]]));
  const known = new Set(candidates.map((c) => c.id));
  const out = new Map<string, Proposed>();
  const add = (id: string | null | undefined, why: keyof Proposed, at: number) => {
    if (!id || known.has(id)) return;
    const p = out.get(id) ?? {};
    if (p[why] === undefined) p[why] = at;
    out.set(id, p);
  };
  best.forEach((id, at) => {
    add(prevOf.get(id), "neighbour", at);
    add(nextOf.get(id), "neighbour", at);
  });
  members.forEach((ids, at) => ids.forEach((id) => add(id, "thread", at)));
  return out;
}

/** The threads (parent ids) whose candidates' best THREAD_EVIDENCE_TURNS scores sum highest, best first. */
function topThreads(ranked: { id: string; score: number }[], place: Map<string, ThreadPlace>, count: number) {
  if (count <= 0) return [];
  const evidence = new Map<string, { n: number; sum: number }>();
  for (const r of ranked) {
    const parent = place.get(r.id)?.parent;
    if (!parent) continue;
    const e = evidence.get(parent) ?? { n: 0, sum: 0 };
    if (e.n < THREAD_EVIDENCE_TURNS) [e.n, e.sum] = [e.n + 1, e.sum + r.score];
    evidence.set(parent, e);
  }
  return [...evidence]
    .sort(([a, x], [b, y]) => y.sum - x.sum || (a < b ? -1 : 1))
    .slice(0, count)
    .map(([parent]) => parent);
}
