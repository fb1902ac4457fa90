import { BaseConfig, loadConfig } from "../../services/kit/config";
import { connectNats, connectRedis, redisReady } from "../../services/kit/connect";
import { createBus } from "../../services/kit/bus";
import { createLogger } from "../../services/kit/log";
import { SearchConfig } from "../../services/search/config";
import { buildSearch, closeSearch } from "../../services/search/wiring";
import { createCandidateReader } from "../../services/search/retrieval";
import { rank, RANKING, type Candidate, type RankingParams } from "../../services/search/ranking";
import { recallAt, type Question } from "./locomo-data";

/**
 * The folds of `npm run bench:locomo -- --folds`: k-fold cross-validation of the ranking's parameters over
 * the conversations. Every question's candidates (with their parts) are read once, in process, from the
 * stack's index; each setting of the grid ranks them; for each conversation in turn, the setting with the
 * best recall@10 (categories 1–5) on the others is chosen and scored on it.
 */
export const KS = [5, 10, 20] as const;
type Recalls = [number, number, number];

/** The settings compared: the service's own first, so it wins ties. */
export function grid(): RankingParams[] {
  const out: RankingParams[] = [RANKING];
  // β < 1: at β = 1 a turn and its neighbour score alike (1 − (1 − a)(1 − b)), their order left to their ids.
  for (const semanticWeight of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7])
    for (const threadWeight of [0, 0.25, 0.5, 0.75, 0.9])
      for (const entityWeight of [0, 0.025, 0.05, 0.075, 0.1]) out.push({ semanticWeight, threadWeight, entityWeight });
  return out;
}

export interface AskedQuestion extends Question {
  conversation: number;
  candidates: Candidate[];
}

/** Reads every question's candidates through the search service's own retrieval code, from the stack's Redis. */
export async function readCandidates(
  stack: { redisUrl: string; natsUrl: string; env: Record<string, string> },
  asked: { conversation: number; tenant: string; question: Question }[],
  externalIdOf: Map<string, string>,
): Promise<AskedQuestion[]> {
  const config = loadConfig({ ...BaseConfig, ...SearchConfig }, { ...stack.env, LOG_LEVEL: "warn" });
  const log = createLogger({ service: "bench-locomo" }, "warn");
  const redis = connectRedis(stack.redisUrl, log, "bench-locomo", { cluster: false });
  await redisReady(redis, log, 10_000);
  const nc = await connectNats(stack.natsUrl, "bench-locomo", log);
  const parts = await buildSearch({ config, redis, bus: createBus(nc, { timeoutMs: 10_000 }), log });
  try {
    const read = createCandidateReader({
      reads: parts.store.reads,
      embedder: parts.embedders.query,
      modelId: parts.modelId,
    });
    const out: AskedQuestion[] = [];
    for (const a of asked) {
      const space = { tenant: a.tenant, env: "live" as const };
      const candidates = await read(space, { query: a.question.question, limit: 20, filters: {} });
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
    await closeSearch(parts);
    await nc.drain().catch(() => undefined);
    redis.disconnect();
  }
}

function recalls(q: AskedQuestion, params: RankingParams): Recalls {
  const ranked = rank(q.candidates, 20, 0, params).map((r) => r.id);
  return KS.map((k) => recallAt(k, ranked, q.evidence)) as Recalls;
}

const mean10 = (rs: Recalls[]) => rs.reduce((s, r) => s + r[1], 0) / Math.max(1, rs.length);

export interface FoldReport {
  held: number;
  chosen: RankingParams;
  trainRecall10: number;
  heldOut: { question: AskedQuestion; r: Recalls }[];
}

/** Leave-one-conversation-out: choose on the others by recall@10 over categories 1–5, score on the one left out. */
export function crossValidate(questions: AskedQuestion[], settings: RankingParams[]) {
  const table = settings.map((p) => questions.map((q) => recalls(q, p)));
  const conversations = [...new Set(questions.map((q) => q.conversation))].sort((a, b) => a - b);
  const folds: FoldReport[] = conversations.map((held) => {
    let best = 0;
    let bestRecall = -1;
    settings.forEach((_, s) => {
      const train = table[s]!.filter((_, i) => questions[i]!.conversation !== held);
      const r = mean10(train);
      if (r > bestRecall + 1e-12) [best, bestRecall] = [s, r];
    });
    const heldOut = questions.flatMap((q, i) =>
      q.conversation === held ? [{ question: q, r: table[best]![i]! }] : [],
    );
    return { held, chosen: settings[best]!, trainRecall10: bestRecall, heldOut };
  });
  const allIn = questions.map((q, i) => ({ question: q, r: table[0]![i]! }));
  let bestAll = 0;
  settings.forEach((_, s) => mean10(table[s]!) > mean10(table[bestAll]!) + 1e-12 && (bestAll = s));
  const tunedOnAll = questions.map((q, i) => ({ question: q, r: table[bestAll]![i]! }));
  return { folds, allIn, tunedOnAll, tunedOnAllParams: settings[bestAll]! };
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
