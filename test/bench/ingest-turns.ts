import { apiClient, newTenant } from "../api";
import { embeddedTokenCounter } from "./embedded-tokens";
import { pool } from "./load";
import { lmeTime, loadLongMemEval, sessionBatchItems, shuffled } from "./longmemeval-data";
import type { BenchContext } from "./sections";
import { embeddingChunks } from "../../services/search/embedder";
import { USE_LITE } from "../../services/search/embedder/use-lite";
import { modelAloneRate } from "./model-alone";

/** Real conversations: this many sessions of LongMemEval_S, their turns posted as a client imports them. */
const SESSIONS = Number(process.env.BENCH_INGEST_SESSIONS ?? 24);
const IN_FLIGHT = 4;
const MODEL_BATCH = 32;

/**
 * Ingest of long, varied chat turns (LongMemEval_S's, ~1,000 characters each, some pasted documents), with the
 * default embedder: a fixed set of sessions (the first questions in the data's fixed order, their first sessions),
 * one `POST /v1/memories/batch` per session (its turns as children of a root, with `occurred_at`), 4 in flight,
 * each call returning once its memories are searchable. Memories/s and tokens embedded/s, then the model alone on
 * the same texts (the chunks the service embeds): the ceiling. The data is read from ../shared/bench/longmemeval/
 * and never copied here; without it this part is skipped with a message.
 */
export async function benchTurnIngest(ctx: BenchContext) {
  const data = loadLongMemEval();
  if (!data) {
    console.log("long turns: skipped (../shared/bench/longmemeval/ is absent; see its README)");
    return;
  }
  const sessions = shuffled(data)
    .flatMap((q) => q.sessions)
    .filter((s, i, all) => all.findIndex((o) => o.id === s.id) === i)
    .slice(0, SESSIONS);
  const countTokens = embeddedTokenCounter();
  // Each session's batch as the LongMemEval bench posts it: its root first, then its turns.
  const bodies = sessions.map((s) => sessionBatchItems(s, lmeTime(s.date) ?? Date.UTC(2023, 0, 1)));
  const turns = bodies.flatMap((items) => items.slice(1).map((t) => t.content));
  const tokens = turns.reduce((n, t) => n + countTokens(t), 0);
  const chars = turns.reduce((n, t) => n + t.length, 0);

  const tenant = await newTenant(ctx.stack.baseUrl, ctx.stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
  const api = apiClient(ctx.stack.baseUrl, tenant.key);
  let failures = 0;
  const started = performance.now();
  await pool(bodies.length, IN_FLIGHT, async (i) => {
    const items = bodies[i]!;
    const res = await api.post("/v1/memories/batch", { items });
    failures += res.status === 200 ? res.body.data.failed : items.length;
  });
  const seconds = (performance.now() - started) / 1000;
  const memories = turns.length + bodies.length;
  console.log(
    `long turns: ${sessions.length} LongMemEval_S sessions, ${turns.length} turns (mean ` +
      `${(chars / turns.length).toFixed(0)} characters, ${(tokens / turns.length).toFixed(0)} tokens embedded), ` +
      `batches of a session at ${IN_FLIGHT} in flight: ${(memories / seconds).toFixed(1)} memories/s, ` +
      `${(tokens / seconds).toFixed(0)} tokens embedded/s (${failures} failures; goal >= 150 memories/s)`,
  );

  // The model alone on what the service embeds for these turns: each turn's chunks, MODEL_BATCH a call.
  const chunks = turns.flatMap((t) => embeddingChunks(t, USE_LITE.maxTokens));
  const { rate, copies } = await modelAloneRate(chunks, MODEL_BATCH);
  const s = chunks.length / rate;
  console.log(
    `  the model alone (${copies} copies) on their ${chunks.length} chunks, ${MODEL_BATCH} a call: ` +
      `${(turns.length / s).toFixed(1)} turns/s, ${(tokens / s).toFixed(0)} tokens/s (the ceiling of ingest here)`,
  );
}
