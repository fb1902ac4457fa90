import Redis from "ioredis";
import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack } from "../../scripts/stack/launch";
import { apiClient, newTenant } from "../api";
import { fmt, interleavedMedians, medianOf, pool, runLoad, type LoadResult } from "./load";
import { rewriteAof } from "./redis-aof";
import type { BenchSection } from "./sections";
import { sentence } from "./sentences";
import { indexWaitMs } from "../../services/contract/search-index";
import { modelAloneRate } from "./model-alone";
import { benchTurnIngest } from "./ingest-turns";

/**
 * Batch ingest against single creates, and what an Idempotency-Key costs a create.
 * - Before embeddings (a stack of its own without the search service): memories/s through `POST /v1/memories`
 *   (1 KiB) at BENCH_CONNECTIONS, with and without a distinct Idempotency-Key per request, at saturation and
 *   paced at half the plain peak (latency there), and through `POST /v1/memories/batch` (BENCH_BATCH_SIZE items of
 *   1 KiB) at BENCH_BATCH_CONNECTIONS.
 * - With embeddings (the main stack, default offline embedder): BENCH_INGEST_EMBEDDED memories of distinct
 *   sentences, one create each at 32 in flight, against batches at BENCH_BATCH_IN_FLIGHT in flight; every call
 *   returns once its memories are searchable. Then the model alone, which bounds both: the ratio's ceiling.
 * - Long chat turns with embeddings (ingest-turns.ts): LongMemEval_S sessions, memories/s and tokens embedded/s.
 */
const BATCH = Number(process.env.BENCH_BATCH_SIZE ?? 100);
const BATCH_CONNECTIONS = Number(process.env.BENCH_BATCH_CONNECTIONS ?? 8);
const EMBEDDED = Number(process.env.BENCH_INGEST_EMBEDDED ?? 3000);
const SINGLE_IN_FLIGHT = 32;
const MODEL_TEXTS = 1024;
const MODEL_BATCH = 32;
const BATCH_IN_FLIGHT = Number(process.env.BENCH_BATCH_IN_FLIGHT ?? 4);
const WARM_UP_S = 3;
/** The paced comparison's load, as a fraction of the plain creates' peak. */
const PACED_FRACTION = 0.5;

const KIB = "Notes from the planning call: the team agreed on dates, budget and the venue by the river. "
  .repeat(12)
  .slice(0, 1000);
const content = (i: number) => `${i} ${KIB}`.slice(0, 1024);

const perSecond = (memories: number, seconds: number) => `${(memories / seconds).toFixed(0)} memories/s`;
const line = (label: string, r: LoadResult, perCall = 1) =>
  `${label.padEnd(44)} ${fmt(r)}   = ${(r.rps * perCall).toFixed(0)} memories/s`;

export const ingestSection: BenchSection = {
  name: "ingest",
  async run(ctx) {
    const dataDir = mkdtempSync(join(resolve(".data-bench"), "ingest-"));
    const bare = await startStack({ dataDir, without: ["search"], env: { LOG_LEVEL: "error" } });
    const redis = new Redis(bare.redisUrl);
    try {
      // At these write rates Redis rewrites its AOF every ~10 s, each rewrite a fork copying the whole data set
      // (1–3 s of a core here): whichever turn one lands in loses that core, which swung a turn's figure by a
      // third. Rewrites run between turns instead, so every turn measures the requests' own cost alike.
      await redis.config("SET", "auto-aof-rewrite-percentage", "0");
      let rewrites = 0;
      let rewriteS = 0;
      const settle = async () => {
        rewriteS += await rewriteAof(redis);
        rewrites++;
      };
      const t = await newTenant(bare.baseUrl, bare.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
      const headers = { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" };
      for (let i = 0; i < 20; i++) await t.api.post("/v1/memories", { content: content(i) });
      const singles = Array.from({ length: 64 }, (_, i) => JSON.stringify({ content: content(i) }));
      const batches = Array.from({ length: 4 }, (_, b) =>
        JSON.stringify({ items: Array.from({ length: BATCH }, (_, i) => ({ content: content(b * BATCH + i) })) }),
      );
      const create = { url: `${bare.baseUrl}/v1/memories`, method: "POST" as const, headers, bodies: singles };
      const spec = { connections: ctx.connections, durationS: ctx.durationS };
      const run = `${Date.now().toString(36)}-`;
      // Both create runs send a header that differs per request, so wrk does the same work for each; they take
      // turns, so the store's growth and the machine's drift weigh on both alike. A first unmeasured turn of each
      // warms both paths up (else the first measured, plain, runs colder).
      const plainSpec = { ...create, ...spec, uniqueHeader: { name: "X-Bench-Seq", prefix: run } };
      const keyedSpec = { ...create, ...spec, uniqueHeader: { name: "Idempotency-Key", prefix: run } };
      for (const warm of [plainSpec, keyedSpec]) await runLoad({ ...warm, durationS: WARM_UP_S });
      const [plain, keyed] = await interleavedMedians(ctx.runs, [plainSpec, keyedSpec], settle);
      console.log(line("before embeddings: POST /v1/memories", plain!));
      console.log(line("  with a distinct Idempotency-Key each", keyed!));
      const cost = (1 - keyed!.rps / plain!.rps) * 100;
      console.log(`  Idempotency-Key cost at saturation: ${cost.toFixed(1)} % of create throughput (goal <= 10 %)`);
      // Latency at half the plain peak: each connection pauses between requests, the same pause for both.
      const delayMs = Math.round((ctx.connections * 1000) / (PACED_FRACTION * plain!.rps));
      const [pacedPlain, pacedKeyed] = await interleavedMedians(
        ctx.runs,
        [
          { ...plainSpec, delayMs },
          { ...keyedSpec, delayMs },
        ],
        settle,
      );
      console.log(line(`  paced at ~${PACED_FRACTION * 100} % of that peak, plain`, pacedPlain!));
      console.log(line(`  paced, with a distinct Idempotency-Key each`, pacedKeyed!));
      const latencyCost = (pacedKeyed!.p50 / pacedPlain!.p50 - 1) * 100;
      console.log(
        `  Idempotency-Key cost at ~${PACED_FRACTION * 100} % load: ${latencyCost.toFixed(1)} % of p50 latency`,
      );
      const batch = await medianOf(
        ctx.runs,
        {
          url: `${bare.baseUrl}/v1/memories/batch`,
          method: "POST",
          headers,
          bodies: batches,
          connections: BATCH_CONNECTIONS,
          durationS: ctx.durationS,
        },
        settle,
      );
      console.log(line(`before embeddings: batch of ${BATCH} at ${BATCH_CONNECTIONS} conns`, batch, BATCH));
      console.log(`  batch / single: ${((batch.rps * BATCH) / plain!.rps).toFixed(2)}x (goal >= 3x)`);
      console.log(
        `  AOF rewritten before each turn, outside it: ${rewrites} rewrites, ${rewriteS.toFixed(1)} s in all`,
      );
    } finally {
      redis.disconnect();
      await bare.stop();
    }

    // With embeddings: distinct sentences (nothing cached), each call waiting until its memories are searchable.
    const single = await newTenant(ctx.stack.baseUrl, ctx.stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
    const one = apiClient(ctx.stack.baseUrl, single.key);
    let failures = 0;
    let started = performance.now();
    await pool(EMBEDDED, SINGLE_IN_FLIGHT, async (i) => {
      if ((await one.post("/v1/memories", { content: sentence(i) })).status !== 200) failures++;
    });
    const singleS = (performance.now() - started) / 1000;
    console.log(
      `with embeddings: ${EMBEDDED} single creates at ${SINGLE_IN_FLIGHT} in flight: ` +
        `${perSecond(EMBEDDED, singleS)} (${failures} failures)`,
    );
    const bulk = await newTenant(ctx.stack.baseUrl, ctx.stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
    const many = apiClient(ctx.stack.baseUrl, bulk.key);
    const calls = Math.ceil(EMBEDDED / BATCH);
    const latencies: number[] = [];
    failures = 0;
    started = performance.now();
    await pool(calls, BATCH_IN_FLIGHT, async (c) => {
      const items = Array.from({ length: BATCH }, (_, i) => ({ content: sentence(EMBEDDED + c * BATCH + i) }));
      const t0 = performance.now();
      const res = await many.post("/v1/memories/batch", { items });
      latencies.push(performance.now() - t0);
      if (res.status !== 200) failures += BATCH;
      else failures += res.body.data.failed;
    });
    const batchS = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const p50 = latencies[Math.floor(latencies.length / 2)] ?? 0;
    const slowest = latencies.at(-1) ?? 0;
    console.log(
      `with embeddings: ${calls} batches of ${BATCH} at ${BATCH_IN_FLIGHT} in flight: ` +
        `${perSecond(calls * BATCH, batchS)} (${failures} failures; a call p50 ${p50.toFixed(0)} ms, ` +
        `slowest ${slowest.toFixed(0)} ms against a wait for the index of ${indexWaitMs(BATCH)} ms)`,
    );
    const speedup = (calls * BATCH * singleS) / (EMBEDDED * batchS);
    console.log(`  batch / single: ${speedup.toFixed(2)}x (goal >= 1.5x)`);
    // What bounds both: the model itself, as the search service runs it (its copies, EMBEDDINGS_BATCH texts a call).
    const texts = Array.from({ length: MODEL_TEXTS }, (_, i) => sentence(2 * EMBEDDED + calls * BATCH + i));
    const { rate, copies } = await modelAloneRate(texts, MODEL_BATCH);
    console.log(
      `the model alone, ${copies} copies, ${MODEL_BATCH} texts a call: ${rate.toFixed(0)} texts/s; ` +
        `so batch / single <= ${((rate * singleS) / EMBEDDED).toFixed(2)}x while the model bounds both`,
    );
    await benchTurnIngest(ctx);
  },
};
