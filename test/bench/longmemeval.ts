import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { postOrThrow, qualityBenchStack } from "./quality-stack";
import { rank } from "../../services/search/ranking";
import { newTenant, type ApiClient } from "../api";
import {
  amongCandidates,
  candidatesUnder,
  crossValidate,
  grid,
  openCandidateReader,
  type ReadCandidate,
} from "./folds";
import { EXPANSION, EXPANSION_READ } from "../../services/search/retrieval";
import {
  DEFAULT_LME_PATH,
  LME_METRICS,
  lmeRecalls,
  lmeTime,
  loadLongMemEval,
  sessionBatchItems,
  shuffled,
  summariseLme,
  turnId,
  type Located,
  type LmeQuestion,
} from "./longmemeval-data";
import { embeddedTokenCounter } from "./embedded-tokens";

/**
 * `npm run bench:longmemeval [-- --folds] [--limit N] [path]`: retrieval on LongMemEval_S through the public
 * API, as ../shared/bench/longmemeval/README.md describes it: one tenant per question, per session one
 * `POST /v1/memories/batch` (a root memory for the session, its turns as children with occurred_at), then
 * `POST /v1/search {query, limit: 100, threshold: 0}` per question. Session- and turn-level recall per question
 * type and overall, ingest rate (memories/s, tokens embedded/s) and search latency.
 * `--folds`: the ranking's parameters chosen on four fifths of the questions and scored on the fifth, rotated
 * (folds.ts); the held-out figure beside the all-in one.
 * `--limit N`: the first N questions of a fixed pseudo-random order (a fair sample).
 */
const args = process.argv.slice(2);
const FOLDS = args.includes("--folds");
const limitAt = args.indexOf("--limit");
const LIMIT = limitAt >= 0 ? Number(args[limitAt + 1]) : Infinity;
const path = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--limit") ?? DEFAULT_LME_PATH;
const loaded = loadLongMemEval(path);
if (!loaded) {
  console.log(
    `bench:longmemeval skipped: no LongMemEval data at ${path} (see ../shared/bench/longmemeval/README.md; ` +
      "the data set is never copied into this repository)",
  );
  process.exit(0);
}
const data = shuffled(loaded).slice(0, LIMIT);
const QUESTIONS_IN_PARALLEL = Number(process.env.LME_CONCURRENCY ?? 3);
const SEARCH_LIMIT = 100;
const FOLD_COUNT = 5;
/** Memory id → its session and turn. */
const where = new Map<string, Located>();

const { root, stack } = await qualityBenchStack("longmemeval");
const post = postOrThrow;

/**
 * One question's haystack, sessions one after the other, each in one batch: its root (the session and its
 * date), then its turns ("<role>: <content>", occurred_at = the session's date + the turn's index in seconds).
 * Fills `where` (memory id → session and turn).
 */
async function ingest(api: ApiClient, q: LmeQuestion, where: Map<string, Located>): Promise<string[]> {
  const contents: string[] = [];
  let last = Date.UTC(2023, 0, 1);
  for (const s of q.sessions) {
    const at = lmeTime(s.date) ?? last + 86_400_000;
    last = at;
    const items = sessionBatchItems(s, at);
    const body = await post(api, "/v1/memories/batch", { items });
    (body.data.items as { data?: { id: string }; error?: unknown }[]).forEach((item, i) => {
      if (!item.data) throw new Error(`batch item ${i} of ${q.id}/${s.id} refused: ${JSON.stringify(item.error)}`);
      where.set(item.data.id, { session: s.id, turn: i === 0 ? null : turnId(s.id, i - 1) });
      contents.push(items[i]!.content);
    });
  }
  return contents;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const evidenceTurns = (q: LmeQuestion) =>
  q.sessions.flatMap((s) => s.turns.flatMap((t, i) => (t.hasAnswer ? [turnId(s.id, i)] : [])));
const fmt = (x: number) => (Number.isNaN(x) ? "-" : x.toFixed(1)).padStart(8);
const heads = LME_METRICS.map((m) => m.replace("session ", "s ").replace("turn ", "t ").padStart(8)).join("");

function table(title: string, rows: { type: string; r: number[] }[], beside?: { type: string; r: number[] }[]) {
  const s = summariseLme(rows);
  const b = beside ? summariseLme(beside) : undefined;
  console.log(`\n${title.padEnd(27)} ${"n".padStart(4)} ${heads}${b ? `  |${heads}` : ""}`);
  for (const [key, v] of Object.entries(s)) {
    const right = b?.[key] ? `  |${b[key]!.at.map(fmt).join("")}` : "";
    console.log(`${key.padEnd(27)} ${String(v.n).padStart(4)} ${v.at.map(fmt).join("")}${right}`);
  }
  return s;
}

try {
  const tenants = await Promise.all(
    data.map(() => newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 })),
  );
  console.log(`LongMemEval_S: ${data.length} of ${loaded.length} questions with evidence (${path})`);
  const contents: string[] = [];
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: QUESTIONS_IN_PARALLEL }, async () => {
      while (next < data.length) {
        const i = next++;
        contents.push(...(await ingest(tenants[i]!.api, data[i]!, where)));
      }
    }),
  );
  const ingestS = (performance.now() - t0) / 1000;
  const tokens = embeddedTokenCounter();
  const embedded = contents.reduce((n, c) => n + tokens(c), 0);
  console.log(
    `ingested ${contents.length} memories in ${ingestS.toFixed(1)} s: ${(contents.length / ingestS).toFixed(1)} ` +
      `memories/s, ${(embedded / ingestS).toFixed(0)} tokens embedded/s (${embedded} tokens; ` +
      `${QUESTIONS_IN_PARALLEL} questions at a time, one batch per session)`,
  );

  const rows: { type: string; r: number[] }[] = [];
  const clientMs: number[] = [];
  const serverMs: number[] = [];
  for (const [i, q] of data.entries()) {
    const started = performance.now();
    const body = await post(tenants[i]!.api, "/v1/search", { query: q.question, limit: SEARCH_LIMIT, threshold: 0 });
    clientMs.push(performance.now() - started);
    serverMs.push(body.meta.latency_ms);
    const ranked = (body.data.results as { id: string }[]).flatMap((r) => where.get(r.id) ?? []);
    rows.push({ type: q.type, r: lmeRecalls(ranked, q.answerSessions, evidenceTurns(q)) });
  }
  const recall = table("recall (s session, t turn)", rows);
  const perTenant = contents.length / data.length;
  console.log(
    `\nsearch latency (single client, limit ${SEARCH_LIMIT}, ~${perTenant.toFixed(0)} memories a tenant): ` +
      `client p50 ${pct(clientMs, 50).toFixed(1)} ms, p99 ${pct(clientMs, 99).toFixed(1)} ms; ` +
      `server p50 ${pct(serverMs, 50).toFixed(1)} ms, p99 ${pct(serverMs, 99).toFixed(1)} ms`,
  );
  const folds = FOLDS ? await runFolds(tenants.map((t) => t.tenant)) : undefined;
  writeFileSync(
    join(root, "results.json"),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        questions: data.length,
        metrics: LME_METRICS,
        ingest: { memories: contents.length, seconds: ingestS, perSecond: contents.length / ingestS, tokens: embedded },
        recall,
        latencyMs: { clientP50: pct(clientMs, 50), clientP99: pct(clientMs, 99), serverP50: pct(serverMs, 50) },
        folds,
      },
      null,
      2,
    ),
  );
} finally {
  await stack.stop();
}

/** Cross-validation of the ranking's parameters over five folds of the questions (folds.ts); prints it. */
async function runFolds(tenantIds: string[]) {
  const reader = await openCandidateReader(stack);
  const asked: { q: LmeQuestion; fold: number; candidates: ReadCandidate[] }[] = [];
  try {
    for (const [i, q] of data.entries())
      asked.push({ q, fold: i % FOLD_COUNT, candidates: await reader.read(tenantIds[i]!, q.question, SEARCH_LIMIT) });
  } finally {
    await reader.close();
  }
  // Every question's candidates (ids as session/turn) and parts, without the data set's text: rankings can be
  // compared offline.
  writeFileSync(
    join(root, "candidates.json"),
    JSON.stringify(
      asked.map(({ q, fold, candidates }) => ({
        id: q.id,
        type: q.type,
        fold,
        answerSessions: q.answerSessions,
        evidence: evidenceTurns(q),
        candidates: candidates.map((c) => ({ ...c, at: where.get(c.id) ?? null })),
      })),
    ),
  );
  // The choice maximises the turn-level figures the goals name: recall_any@5, recall_any@10 and recall_all@10.
  const objectiveAt = [4, 5, 6];
  const settings = grid();
  const cv = crossValidate(asked, settings, {
    foldOf: (a) => a.fold,
    score: (a, params) => {
      const ranked = rank(candidatesUnder(a.candidates, params), SEARCH_LIMIT, 0, params).flatMap(
        (r) => where.get(r.id) ?? [],
      );
      return lmeRecalls(ranked, a.q.answerSessions, evidenceTurns(a.q));
    },
    objective: (rows) => rows.reduce((s, r) => s + objectiveAt.reduce((t, i) => t + r[i]!, 0), 0) / rows.length,
  });
  console.log(`\nfolds: ${settings.length} settings; each fifth of the questions held out, chosen on the others`);
  for (const f of cv.folds)
    console.log(
      `  fold ${f.held}: n ${f.heldOut.length}, train objective ${((100 * f.train) / 3).toFixed(1)}, ` +
        JSON.stringify(f.chosen),
    );
  const typed = (rows: { question: (typeof asked)[number]; r: number[] }[]) =>
    rows.map(({ question, r }) => ({ type: question.q.type, r }));
  const heldOut = table("held-out | all-in", typed(cv.folds.flatMap((f) => f.heldOut)), typed(cv.allIn));
  console.log(`tuned on all: ${JSON.stringify(cv.tunedOnAllParams)}`);
  const candidates = candidateRecall(asked);
  return { settings: settings.length, chosen: cv.folds.map((f) => f.chosen), heldOut, candidates };
}

/**
 * How often the evidence is among the candidates at all (no ranking can find it otherwise), per type: any and
 * all of a question's evidence turns, with the service's expansion and with the largest the folds read.
 */
function candidateRecall(asked: { q: LmeQuestion; candidates: ReadCandidate[] }[]) {
  const groups = new Map<string, number[][]>();
  for (const { q, candidates } of asked) {
    const evidence = evidenceTurns(q);
    const ids = new Map(candidates.map((c) => [c.id, where.get(c.id)?.turn ?? c.id]));
    const named = candidates.map((c) => ({ ...c, id: ids.get(c.id)! }));
    const r = [EXPANSION, EXPANSION_READ].flatMap((x) => {
      const n = amongCandidates(named, evidence, x);
      return [n > 0 ? 1 : 0, n === evidence.length ? 1 : 0];
    });
    r.push(candidates.filter((c) => !c.proposed).length, candidates.length);
    for (const key of [q.type, "overall"]) groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  console.log(
    `\n${"evidence among candidates".padEnd(27)} ${"n".padStart(4)}   any     all | expanded: any     all` +
      `   (candidates: ${JSON.stringify(EXPANSION)} | ${JSON.stringify(EXPANSION_READ)})`,
  );
  const out: Record<string, number[]> = {};
  for (const [key, rs] of [...groups].sort(([a], [b]) =>
    a === "overall" ? 1 : b === "overall" ? -1 : a < b ? -1 : 1,
  )) {
    out[key] = rs[0]!.map((_, i) => rs.reduce((s, r) => s + r[i]!, 0) / rs.length);
    const v = out[key]!.map((x, i) => (i < 4 ? (100 * x).toFixed(1) : x.toFixed(0)).padStart(7));
    const label = `${key.padEnd(27)} ${String(rs.length).padStart(4)}`;
    console.log(`${label} ${v[0]} ${v[1]} |          ${v[2]} ${v[3]}   ${v[4]} | ${v[5]}`);
  }
  return out;
}
