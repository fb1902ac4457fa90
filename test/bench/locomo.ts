import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack } from "../../scripts/stack/launch";
import { newTenant, type ApiClient } from "../api";
import {
  CATEGORY_NAMES,
  DEFAULT_LOCOMO_PATH,
  loadLocomo,
  recallAt,
  sessionContent,
  type Conversation,
} from "./locomo-data";

/**
 * `npm run bench:locomo [path/to/locomo.json]`: retrieval quality on LoCoMo through the public API,
 * as ../shared/bench/locomo/README.md describes it: one tenant per conversation, a root memory per
 * session and a child per turn (external_id = dia_id), then `POST /v1/search {query, limit: 20}`
 * per question; recall@5/10/20 per category and overall, ingestion rate and query latency.
 */
const path = process.argv[2] ?? DEFAULT_LOCOMO_PATH;
const data = loadLocomo(path);
if (!data) {
  console.log(
    `bench:locomo skipped: no LoCoMo data at ${path} (see ../shared/bench/locomo/README.md; ` +
      "the data set is never copied into this repository)",
  );
  process.exit(0);
}
const SESSIONS_IN_PARALLEL = Number(process.env.LOCOMO_CONCURRENCY ?? 8);
const KS = [5, 10, 20] as const;

const root = resolve(".data-bench-locomo");
mkdirSync(root, { recursive: true });
const stack = await startStack({
  dataDir: mkdtempSync(join(root, "stack-")),
  env: { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "10000000" },
});

async function post(api: ApiClient, path: string, body: unknown) {
  for (let attempt = 0; ; attempt++) {
    const res = await api.post(path, body);
    if (res.status === 200) return res.body;
    if (attempt >= 3 || res.status < 500) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    await Bun.sleep(200 * 2 ** attempt);
  }
}

/** Sessions go in parallel; the turns of one session are posted in order (a conversation is written as it happens). */
async function ingest(api: ApiClient, conv: Conversation): Promise<number> {
  let count = 0;
  let next = 0;
  const worker = async () => {
    while (next < conv.sessions.length) {
      const s = conv.sessions[next++]!;
      const rootMemory = await post(api, "/v1/memories", {
        content: sessionContent(conv, s),
        content_type: "conversation",
        tier: "long",
        external_id: `session_${s.index}`,
        metadata: { session: s.index, date_time: s.dateTime },
      });
      count++;
      for (const t of s.turns) {
        await post(api, "/v1/memories", {
          content: t.content,
          content_type: "conversation",
          tier: "short",
          parent_memory_id: rootMemory.data.id,
          external_id: t.diaId,
          metadata: { speaker: t.speaker, session: s.index },
        });
        count++;
      }
    }
  };
  await Promise.all(Array.from({ length: SESSIONS_IN_PARALLEL }, worker));
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
  const ingested = (await Promise.all(data.map((c, i) => ingest(tenants[i]!.api, c)))).reduce((a, b) => a + b, 0);
  const ingestS = (performance.now() - t0) / 1000;
  console.log(
    `ingested ${ingested} memories in ${ingestS.toFixed(1)} s: ${(ingested / ingestS).toFixed(1)} memories/s ` +
      `(${SESSIONS_IN_PARALLEL} sessions in parallel per conversation)`,
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

  const result = {
    at: new Date().toISOString(),
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
