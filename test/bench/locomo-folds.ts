import { rank } from "../../services/search/ranking";
import {
  candidatesUnder,
  crossValidate as crossValidateFolds,
  openCandidateReader,
  type Fold,
  type ReadCandidate,
} from "./folds";
import { recallAt, type Question } from "./locomo-data";

export { grid } from "./folds";

/**
 * The folds of `npm run bench:locomo -- --folds`: cross-validation of the ranking's parameters over the
 * conversations (folds.ts). For each conversation in turn, the setting with the best recall@10 (categories
 * 1–5) on the others is chosen and scored on it.
 */
export const KS = [5, 10, 20] as const;
type Recalls = [number, number, number];

export interface AskedQuestion extends Question {
  conversation: number;
  candidates: ReadCandidate[];
}

/** Reads every question's candidates through the search service's own retrieval code, from the stack's Redis. */
export async function readCandidates(
  stack: { redisUrl: string; natsUrl: string; env: Record<string, string> },
  asked: { conversation: number; tenant: string; question: Question }[],
  externalIdOf: Map<string, string>,
): Promise<AskedQuestion[]> {
  const reader = await openCandidateReader(stack);
  try {
    const out: AskedQuestion[] = [];
    for (const a of asked) {
      const candidates = await reader.read(a.tenant, a.question.question, 20);
      // Ranking only needs ids to be distinct and stable; the turn's dia_id makes the recall readable.
      const named = candidates.map((c) => ({
        ...c,
        id: externalIdOf.get(c.id) ?? c.id,
        prev: c.prev === undefined ? undefined : (externalIdOf.get(c.prev) ?? c.prev),
      }));
      out.push({ ...a.question, conversation: a.conversation, candidates: named });
    }
    return out;
  } finally {
    await reader.close();
  }
}

export interface FoldReport {
  held: number;
  chosen: Fold<AskedQuestion>["chosen"];
  trainRecall10: number;
  heldOut: { question: AskedQuestion; r: Recalls }[];
}

/** Leave-one-conversation-out: choose on the others by recall@10 over categories 1–5, score on the one left out. */
export function crossValidate(questions: AskedQuestion[], settings: Fold<AskedQuestion>["chosen"][]) {
  const cv = crossValidateFolds(questions, settings, {
    foldOf: (q) => q.conversation,
    score: (q, params) => {
      const ranked = rank(candidatesUnder(q.candidates, params), 20, 0, params).map((r) => r.id);
      return KS.map((k) => recallAt(k, ranked, q.evidence));
    },
    objective: (rows) => rows.reduce((s, r) => s + r[1]!, 0) / Math.max(1, rows.length),
  });
  const folds: FoldReport[] = cv.folds.map((f) => ({
    held: f.held,
    chosen: f.chosen,
    trainRecall10: f.train,
    heldOut: f.heldOut as FoldReport["heldOut"],
  }));
  const recalls = (rows: { question: AskedQuestion; r: number[] }[]) => rows as FoldReport["heldOut"];
  return { folds, allIn: recalls(cv.allIn), tunedOnAll: recalls(cv.tunedOnAll), tunedOnAllParams: cv.tunedOnAllParams };
}

/** Recall@5/10/20 in percent per category, 1–4 and 1–5, of (question, recalls) pairs. */
export function summarise(rows: { question: Question; r: Recalls }[]) {
  const sums = new Map<string, { n: number; r: number[] }>();
  const add = (key: string, r: Recalls) => {
    const s = sums.get(key) ?? { n: 0, r: [0, 0, 0] };
    s.n++;
    r.forEach((v, i) => (s.r[i]! += v));
    sums.set(key, s);
  };
  for (const { question, r } of rows) {
    add(`c${question.category}`, r);
    add("1-5", r);
    if (question.category !== 5) add("1-4", r);
  }
  return Object.fromEntries([...sums].map(([k, s]) => [k, { n: s.n, at: s.r.map((x) => (100 * x) / s.n) as Recalls }]));
}
