import { BaseConfig, loadConfig } from "../../services/kit/config";
import { connectNats, connectRedis, redisReady } from "../../services/kit/connect";
import { createBus } from "../../services/kit/bus";
import { createLogger } from "../../services/kit/log";
import { SearchConfig } from "../../services/search/config";
import { buildSearch, closeSearch } from "../../services/search/wiring";
import {
  createCandidateReader,
  EXPANSION,
  keptBy,
  type Expansion,
  type Proposed,
} from "../../services/search/retrieval";
import { RANKING, type Candidate, type RankingParams } from "../../services/search/ranking";

/**
 * What the retrieval benchmarks' `--folds` share: every question's candidates read once, in process,
 * through the search service's own retrieval code, and k-fold cross-validation of the ranking's
 * parameters over them (choose on the other folds, score the held-out one, rotate).
 */

/** A setting the folds compare: the ranking's weights, and which added candidates count (expand.ts). */
export type Setting = RankingParams & { expansion: Expansion };

/** A candidate as the reader gives it: one the expansion added says why. */
export type ReadCandidate = Candidate & { proposed?: Proposed };

/** The candidates a setting ranks: the first ones, and those its expansion would have added. */
export const candidatesUnder = (candidates: ReadCandidate[], s: Setting) =>
  candidates.filter((c) => !c.proposed || keptBy(c.proposed, s.expansion));

/** Which of `evidence` (ids as the candidates name them) are among a setting's candidates. */
export function amongCandidates(candidates: ReadCandidate[], evidence: string[], expansion: Expansion) {
  const ids = new Set(candidatesUnder(candidates, { ...RANKING, expansion }).map((c) => c.id));
  return evidence.filter((e) => ids.has(e)).length;
}

/**
 * The settings compared: the service's own first, so it wins ties. The weights and the chunk discount over their
 * whole range without expansion; each expansion crossed with the weights near the service's (the optimum is a
 * wide plateau).
 */
export function grid(): Setting[] {
  const none: Expansion = { neighbours: 0, threads: 0, feedback: 0 };
  const out: Setting[] = [{ ...RANKING, expansion: EXPANSION }];
  // β < 1: at β = 1 a turn and its neighbour score alike (1 − (1 − a)(1 − b)), their order left to their ids.
  for (const semanticWeight of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75])
    for (const threadWeight of [0, 0.25, 0.5, 0.75, 0.9])
      for (const entityWeight of [0, 0.025, 0.05, 0.075, 0.1, 0.125, 0.15])
        for (const chunkDiscount of [0, 0.05, 0.1, 0.15, 0.2])
          for (const peakWidth of chunkDiscount === 0 ? [0] : [0, 0.1, 0.15])
            out.push({ semanticWeight, threadWeight, entityWeight, chunkDiscount, peakWidth, expansion: none });
  for (const neighbours of [0, 3, 5, 10, 20])
    for (const threads of [0, 1, 2, 3])
      for (const feedback of [0, 10, 30]) {
        if (neighbours === 0 && threads === 0 && feedback === 0) continue;
        for (const semanticWeight of [0.45, 0.5, 0.55, 0.6])
          for (const threadWeight of [0.75, 0.9])
            for (const entityWeight of [0, 0.05, 0.1])
              out.push({
                semanticWeight,
                threadWeight,
                entityWeight,
                chunkDiscount: RANKING.chunkDiscount,
                peakWidth: RANKING.peakWidth,
                expansion: { neighbours, threads, feedback },
              });
      }
  return out;
}

/** Candidates of a query in one tenant's live index, read from the stack's Redis as the service reads them. */
export async function openCandidateReader(stack: { redisUrl: string; natsUrl: string; env: Record<string, string> }) {
  const config = loadConfig({ ...BaseConfig, ...SearchConfig }, { ...stack.env, LOG_LEVEL: "warn" });
  const log = createLogger({ service: "bench-folds" }, "warn");
  const redis = connectRedis(stack.redisUrl, log, "bench-folds", { cluster: false });
  await redisReady(redis, log, 10_000);
  const nc = await connectNats(stack.natsUrl, "bench-folds", log);
  const parts = await buildSearch({ config, redis, bus: createBus(nc, { timeoutMs: 10_000 }), log });
  const read = createCandidateReader({
    reads: parts.store.reads,
    embedder: parts.embedders.query,
    modelId: parts.modelId,
  });
  return {
    read: (tenant: string, query: string, limit: number): Promise<ReadCandidate[]> =>
      read({ tenant, env: "live" }, { query, limit, filters: {} }),
    async close() {
      await closeSearch(parts);
      await nc.drain().catch(() => undefined);
      redis.disconnect();
    },
  };
}

export interface Fold<Q> {
  held: number;
  chosen: Setting;
  /** The objective of the chosen setting on the other folds. */
  train: number;
  heldOut: { question: Q; r: number[] }[];
}

export interface FoldSpec<Q> {
  /** Which fold a question belongs to. */
  foldOf: (q: Q) => number;
  /** A question's figures (recalls…) under one setting. */
  score: (q: Q, setting: Setting) => number[];
  /** What the choice maximises over some questions' figures. */
  objective: (rows: number[][]) => number;
}

/** Each fold held out in turn, scored with the setting the others prefer; also all-in and tuned on all. */
export function crossValidate<Q>(questions: Q[], settings: Setting[], spec: FoldSpec<Q>) {
  const table = settings.map((p) => questions.map((q) => spec.score(q, p)));
  const folds = [...new Set(questions.map(spec.foldOf))].sort((a, b) => a - b);
  const best = (keep: (i: number) => boolean) => {
    let at = 0;
    let value = -Infinity;
    settings.forEach((_, s) => {
      const v = spec.objective(table[s]!.filter((_, i) => keep(i)));
      if (v > value + 1e-12) [at, value] = [s, v];
    });
    return { at, value };
  };
  const rows = (s: number, keep: (i: number) => boolean) =>
    questions.flatMap((question, i) => (keep(i) ? [{ question, r: table[s]![i]! }] : []));
  const report: Fold<Q>[] = folds.map((held) => {
    const inFold = (i: number) => spec.foldOf(questions[i]!) === held;
    const { at, value } = best((i) => !inFold(i));
    return { held, chosen: settings[at]!, train: value, heldOut: rows(at, inFold) };
  });
  const everyone = () => true;
  const tuned = best(everyone);
  return {
    folds: report,
    allIn: rows(0, everyone),
    tunedOnAll: rows(tuned.at, everyone),
    tunedOnAllParams: settings[tuned.at]!,
  };
}
