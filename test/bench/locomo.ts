import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { postOrThrow, qualityBenchStack } from "./quality-stack";
import { newTenant, type ApiClient } from "../api";
import {
  CATEGORY_NAMES,
  DEFAULT_LOCOMO_PATH,
  loadLocomo,
  recallAt,
  sessionContent,
  sessionTime,
  type Conversation,
} from "./locomo-data";
import { crossValidate, grid, readCandidates, summarise, type FoldReport } from "./locomo-folds";
import { amongCandidates } from "./folds";
import { EXPANSION, EXPANSION_READ } from "../../services/search/retrieval";

/**
 * `npm run bench:locomo [-- --folds] [path/to/locomo.json]`: retrieval quality on LoCoMo through the public
 * API, as ../shared/bench/locomo/README.md describes it: one tenant per conversation, a root memory per
 * session and a child per turn (external_id = dia_id), then `POST /v1/search {query, limit: 20}`
 * per question; recall@5/10/20 per category and overall, ingestion rate and query latency.
 * `--folds`: also k-fold cross-validation of the ranking's parameters over the conversations
 * (locomo-folds.ts), the held-out figure beside the all-in one.
 */
const args = process.argv.slice(2);
const FOLDS = args.includes("--folds");
const path = args.find((a) => !a.startsWith("--")) ?? DEFAULT_LOCOMO_PATH;
const data = loadLocomo(path);
if (!data) {
  console.log(
    `bench:locomo skipped: no LoCoMo data at ${path} (see ../shared/bench/locomo/README.md; ` +
      "the data set is never copied into this repository)",
  );
  process.exit(0);
}
const TURNS_IN_PARALLEL = Number(process.env.LOCOMO_CONCURRENCY ?? 8);
const KS = [5, 10, 20] as const;

const { root, stack } = await qualityBenchStack("locomo");
const post = postOrThrow;

/**
 * As an importer would: sessions one after the other, each session's turns posted concurrently (8 at a
 * time), each memory with its occurred_at (the session's date; turns a minute apart, in order), so the
 * thread's order comes from occurred_at and not from the order the writes arrive in.
 * Fills `externalIdOf` (memory id → dia_id or session_N).
 */
async function ingest(api: ApiClient, conv: Conversation, externalIdOf: Map<string, string>): Promise<number> {
  let count = 0;
  let last = Date.UTC(2020, 0, 1);
  for (const s of conv.sessions) {
    const at = Math.max(sessionTime(s.dateTime) ?? last + 86_400_000, last + 60_000);
    last = at + s.turns.length * 60_000;
    const rootMemory = await post(api, "/v1/memories", {
      content: sessionContent(conv, s),
      content_type: "conversation",
      tier: "long",
      external_id: `session_${s.index}`,
      occurred_at: new Date(at).toISOString(),
      metadata: { session: s.index, date_time: s.dateTime },
    });
    externalIdOf.set(rootMemory.data.id, `session_${s.index}`);
    count++;
    let next = 0;
    const worker = async () => {
      while (next < s.turns.length) {
        const i = next++;
        const t = s.turns[i]!;
        const turn = await post(api, "/v1/memories", {
          content: t.content,
          content_type: "conversation",
          tier: "short",
          parent_memory_id: rootMemory.data.id,
          external_id: t.diaId,
          occurred_at: new Date(at + (i + 1) * 60_000).toISOString(),
          metadata: { speaker: t.speaker, session: s.index },
        });
        externalIdOf.set(turn.data.id, t.diaId);
        count++;
      }
    };
    await Promise.all(Array.from({ length: TURNS_IN_PARALLEL }, worker));
  }
  return count;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

try {
  const tenants = await Promise.all(
    data.map(() => newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 })),
  );
  console.log(
    `LoCoMo: ${data.length} conversations, ${data.reduce((n, c) => n + c.questions.length, 0)} questions (${path})`,
  );

  const t0 = performance.now();
  const externalIdOf = new Map<string, string>();
  const ingested = (await Promise.all(data.map((c, i) => ingest(tenants[i]!.api, c, externalIdOf)))).reduce(
    (a, b) => a + b,
    0,
  );
  const ingestS = (performance.now() - t0) / 1000;
  console.log(
    `ingested ${ingested} memories in ${ingestS.toFixed(1)} s: ${(ingested / ingestS).toFixed(1)} memories/s ` +
      `(conversations in parallel, ${TURNS_IN_PARALLEL} turns of a session at a time, with occurred_at)`,
  );

  const sums = new Map<string, { n: number; r: number[] }>();
  const add = (key: string, r: number[]) => {
    const s = sums.get(key) ?? { n: 0, r: KS.map(() => 0) };
    s.n++;
    r.forEach((v, i) => (s.r[i]! += v));
    sums.set(key, s);
  };
  const clientMs: number[] = [];
  const serverMs: number[] = [];
  for (const [i, conv] of data.entries()) {
    for (const q of conv.questions) {
      const started = performance.now();
      const body = await post(tenants[i]!.api, "/v1/search", { query: q.question, limit: 20, threshold: 0 });
      clientMs.push(performance.now() - started);
      serverMs.push(body.meta.latency_ms);
      const ranked = (body.data.results as { external_id: string | null }[]).map((r) => r.external_id ?? "");
      const r = KS.map((k) => recallAt(k, ranked, q.evidence));
      add(`c${q.category}`, r);
      add("1-5", r);
      if (q.category !== 5) add("1-4", r);
    }
  }

  const row = (label: string, key: string) => {
    const s = sums.get(key);
    if (!s) return;
    console.log(
      `${label.padEnd(24)} ${String(s.n).padStart(5)}  ` +
        `${s.r.map((x) => ((100 * x) / s.n).toFixed(1).padStart(6)).join("  ")}`,
    );
  };
  console.log(`\n${"recall".padEnd(24)} ${"n".padStart(5)}  ${KS.map((k) => `@${k}`.padStart(6)).join("  ")}`);
  for (const c of [1, 2, 3, 4, 5]) row(`${c} ${CATEGORY_NAMES[c]}`, `c${c}`);
  row("categories 1-4", "1-4");
  row("categories 1-5", "1-5");
  console.log(
    "\nquery latency (single client, limit 20): " +
      `client p50 ${pct(clientMs, 50).toFixed(1)} ms, p99 ${pct(clientMs, 99).toFixed(1)} ms; ` +
      `server p50 ${pct(serverMs, 50).toFixed(1)} ms, p99 ${pct(serverMs, 99).toFixed(1)} ms`,
  );

  const folds = FOLDS
    ? await runFolds(
        tenants.map((t) => t.tenant),
        externalIdOf,
      )
    : undefined;

  const result = {
    at: new Date().toISOString(),
    folds,
    ingest: { memories: ingested, seconds: ingestS, perSecond: ingested / ingestS },
    recall: Object.fromEntries(
      [...sums].map(([k, s]) => [
        k,
        { n: s.n, ...Object.fromEntries(KS.map((kk, i) => [`@${kk}`, (100 * s.r[i]!) / s.n])) },
      ]),
    ),
    latencyMs: {
      clientP50: pct(clientMs, 50),
      clientP99: pct(clientMs, 99),
      serverP50: pct(serverMs, 50),
      serverP99: pct(serverMs, 99),
    },
  };
  writeFileSync(join(root, "results.json"), JSON.stringify(result, null, 2));
} finally {
  await stack.stop();
}

/** Cross-validation of the ranking's parameters, one conversation held out at a time (locomo-folds.ts); prints it. */
async function runFolds(tenantIds: string[], externalIdOf: Map<string, string>) {
  const asked = data!.flatMap((c, conversation) =>
    c.questions.map((question) => ({ conversation, tenant: tenantIds[conversation]!, question })),
  );
  const questions = await readCandidates(stack, asked, externalIdOf);
  // Every question's candidates and parts, without the data set's text: rankings can be compared offline.
  writeFileSync(join(root, "candidates.json"), JSON.stringify(questions.map(({ question: _, ...q }) => q)));
  const settings = grid();
  const cv = crossValidate(questions, settings);
  const params = (p: object) => JSON.stringify(p);
  const fmt = (x: number) => x.toFixed(1).padStart(6);
  console.log(`\nfolds: ${settings.length} settings; each conversation held out in turn, chosen on the others`);
  const perFold = cv.folds.map((f: FoldReport) => {
    const s = summarise(f.heldOut);
    console.log(
      `  held out ${data![f.held]!.id.padEnd(7)} n ${String(s["1-5"]!.n).padStart(3)}  ` +
        `@10 held-out 1-5 ${fmt(s["1-5"]!.at[1])}  (train ${fmt(100 * f.trainRecall10)})  ${params(f.chosen)}`,
    );
    return { conversation: data![f.held]!.id, chosen: f.chosen, train10: 100 * f.trainRecall10, recall: s };
  });
  const heldOut = summarise(cv.folds.flatMap((f) => f.heldOut));
  const allIn = summarise(cv.allIn);
  const tuned = summarise(cv.tunedOnAll);
  const heads = ["@5", "@10", "@20"].map((k) => k.padStart(6)).join("  ");
  console.log(`\n${"recall (held-out | all-in)".padEnd(26)} ${"n".padStart(5)}  ${heads}  |${heads}`);
  for (const key of ["c1", "c2", "c3", "c4", "c5", "1-4", "1-5"]) {
    const label = key.startsWith("c") ? `${key[1]} ${CATEGORY_NAMES[Number(key[1])]}` : `categories ${key}`;
    const [h, a] = [heldOut[key]!, allIn[key]!];
    console.log(
      `${label.padEnd(26)} ${String(h.n).padStart(5)}  ${h.at.map(fmt).join("  ")}  |${a.at.map(fmt).join("  ")}`,
    );
  }
  const foldMean10 = perFold.reduce((s, f) => s + f.recall["1-5"]!.at[1], 0) / perFold.length;
  console.log(
    `\nheld-out recall@10 (1-5): ${heldOut["1-5"]!.at[1].toFixed(1)} over questions, ` +
      `${foldMean10.toFixed(1)} mean of folds; all-in (the service's own setting) ${allIn["1-5"]!.at[1].toFixed(1)}; ` +
      `tuned on all five ${tuned["1-5"]!.at[1].toFixed(1)} ${params(cv.tunedOnAllParams)}`,
  );
  // No ranking finds evidence that is not among the candidates: the share that is, per category.
  const among = (key: string, x: typeof EXPANSION) => {
    const qs = questions.filter((q) => key === "1-5" || `c${q.category}` === key);
    return (
      (100 * qs.reduce((s, q) => s + amongCandidates(q.candidates, q.evidence, x) / q.evidence.length, 0)) / qs.length
    );
  };
  const candidates = Object.fromEntries(
    ["c1", "c2", "c3", "c4", "c5", "1-5"].map((key) => [key, [among(key, EXPANSION), among(key, EXPANSION_READ)]]),
  );
  console.log(
    `\nevidence among the candidates, ${JSON.stringify(EXPANSION)} | ${JSON.stringify(EXPANSION_READ)}: ` +
      Object.entries(candidates)
        .map(([k, [a, b]]) => `${k} ${a!.toFixed(1)} | ${b!.toFixed(1)}`)
        .join(", "),
  );
  return {
    candidates,
    settings: settings.length,
    perFold,
    heldOut,
    allIn,
    tunedOnAll: { params: cv.tunedOnAllParams, recall: tuned },
  };
}
