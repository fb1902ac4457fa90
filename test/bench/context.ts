import { apiClient, newTenant } from "../api";
import { fmt, medianOf, percentile, pool } from "./load";
import type { BenchSection } from "./sections";
import { indexerDrained } from "./search";
import { query, sentence } from "./sentences";

/**
 * POST /v1/context over threaded memories (BENCH_CONTEXT_THREADS threads of 12 turns each under a root), so most
 * matches have a parent, ancestors and siblings: single-client p50/p99 at 20 and 50 matches, then 8 clients.
 * Queries repeat after a warm-up, so the embedding cache serves them and what is timed is retrieval, the reads
 * of the memories service and the assembly.
 */
const THREADS = Number(process.env.BENCH_CONTEXT_THREADS ?? 40);
const TURNS = 12;
const QUERIES = 40;
const SINGLE_CLIENT_ROUNDS = Number(process.env.BENCH_CONTEXT_ROUNDS ?? 5);

export const contextSection: BenchSection = {
  name: "context",
  async run(ctx) {
    const t = await newTenant(ctx.stack.baseUrl, ctx.stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
    const api = apiClient(ctx.stack.baseUrl, t.key);
    const started = performance.now();
    await pool(THREADS, 8, async (thread) => {
      const root = await api.post("/v1/memories", { content: `Conversation ${thread}`, tier: "long" });
      if (root.status !== 200) throw new Error(`create failed: ${root.status}`);
      const items = Array.from({ length: TURNS }, (_, turn) => ({
        content: sentence(thread * TURNS + turn),
        parent_memory_id: root.body.data.id,
        tier: "short",
      }));
      const batch = await api.post("/v1/memories/batch", { items });
      if (batch.status !== 200) throw new Error(`batch failed: ${batch.status} ${JSON.stringify(batch.body)}`);
    });
    await indexerDrained(ctx.stack.natsUrl);
    const total = THREADS * (TURNS + 1);
    console.log(
      `${total} memories in ${THREADS} threads, written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    for (const [limit, neighbors] of [
      [20, 1],
      [50, 2],
    ] as const) {
      const body = (q: number) => ({ query: query(q), limit, neighbors, max_tokens: 8000 });
      // Warm-up (not measured): fills the embedding cache with every query used below.
      for (let q = 0; q < QUERIES; q++) await api.post("/v1/context", body(q));
      const lat: number[] = [];
      let pieces = 0;
      for (let round = 0; round < SINGLE_CLIENT_ROUNDS; round++)
        for (let q = 0; q < QUERIES; q++) {
          const s = performance.now();
          const res = await api.post("/v1/context", body(q));
          if (res.status !== 200) throw new Error(`context failed: ${res.status} ${JSON.stringify(res.body)}`);
          lat.push(performance.now() - s);
          pieces += res.body.data.memories.length;
        }
      const load = await medianOf(ctx.runs, {
        url: `${ctx.stack.baseUrl}/v1/context`,
        method: "POST",
        headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" },
        bodies: Array.from({ length: QUERIES }, (_, q) => JSON.stringify(body(q))),
        connections: 8,
        durationS: ctx.durationS,
      });
      console.log(
        `  limit ${limit} neighbors ${neighbors} (${(pieces / lat.length).toFixed(0)} memories a context): single ` +
          `client p50 ${percentile(lat, 50).toFixed(1)} ms p99 ${percentile(lat, 99).toFixed(1)} ms | ` +
          `8 clients ${fmt(load)}`,
      );
    }
  },
};
