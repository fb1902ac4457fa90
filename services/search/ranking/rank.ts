import { fittedSemantic, matchScore, RANKING, withEntity, withThread, type RankingParams } from "./fusion";

export interface Candidate {
  id: string;
  semantic: number;
  lexical: number;
  /** The previous sibling of this memory (its thread neighbour), when known. */
  prev?: string;
  /** Share of the query's names its postings hold (0..1); absent when the query names nobody. */
  entity?: number;
  /** How many vectors (chunks) the memory has; absent: one. */
  chunks?: number;
  /** Its runner-up chunk's cosine when it has several (runner-up.ts), or a bound above it; absent: unknown. */
  runnerUp?: number;
}

export interface Ranked {
  id: string;
  score: number;
  scores: { semantic: number; lexical: number; thread: number; entity: number | null };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Fuses parts into scores (formula in fusion.ts, with `params`), applies the threshold and returns the best `limit`,
 * best first (ties: id, so the order is stable).
 */
export function rank(
  candidates: Candidate[],
  limit: number,
  threshold: number,
  params: RankingParams = RANKING,
): Ranked[] {
  const match = new Map(
    candidates.map((c) => {
      const semantic = fittedSemantic(c, params);
      const m = matchScore(semantic, c.lexical, params.semanticWeight);
      return [c.id, withEntity(m, c.entity ?? 0, params.entityWeight)];
    }),
  );
  // Best neighbour of each candidate: its previous sibling, and any candidate whose previous sibling it is.
  const neighbour = new Map<string, number>();
  const raise = (id: string, value: number | undefined) => {
    if (value !== undefined && value > (neighbour.get(id) ?? 0)) neighbour.set(id, value);
  };
  for (const c of candidates) {
    if (!c.prev || !match.has(c.prev)) continue;
    raise(c.id, match.get(c.prev));
    raise(c.prev, match.get(c.id));
  }
  const ranked: Ranked[] = candidates.map((c) => {
    const thread = neighbour.get(c.id) ?? 0;
    return {
      id: c.id,
      score: round(withThread(match.get(c.id)!, thread, params.threadWeight)),
      scores: {
        semantic: round(c.semantic),
        lexical: round(c.lexical),
        thread: round(thread),
        entity: c.entity === undefined ? null : round(c.entity),
      },
    };
  });
  return ranked
    .filter((r) => r.score >= threshold)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}
