import Redis from "ioredis";
import { connect } from "nats";
import { STREAMS } from "../../services/contract/streams";
import { INDEXER_DURABLE } from "../../services/search/indexer";
import { apiClient, newTenant } from "../api";
import { fmt, medianOf, pool } from "./load";
import { rewriteAof } from "./redis-aof";
import type { BenchSection } from "./sections";
import { query, sentence } from "./sentences";

/**
 * POST /v1/search through the gateway at BENCH_SEARCH_SIZES memories in one tenant
 * (default 10000; the 100000 takes ~30 min of ingestion here), single-client p50/p99 and
 * queries/s, with and without a tier / tag filter, ingestion rate through POST /v1/memories, and the
 * Redis memory of the search index per memory.
 */
const SIZES = (process.env.BENCH_SEARCH_SIZES ?? "10000").split(",").map(Number);
const INGEST_IN_FLIGHT = Number(process.env.BENCH_SEARCH_INGEST_CONCURRENCY ?? 32);
const SINGLE_CLIENT_QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 300);
const TAGGED_EVERY = 10;

/** Until the event indexer has nothing left to apply: query latency is measured at steady state. */
export async function indexerDrained(natsUrl: string, timeoutMs = 300_000): Promise<number> {
  const nc = await connect({ servers: natsUrl });
  const started = performance.now();
  try {
    const jsm = await nc.jetstreamManager();
    for (;;) {
      const info = await jsm.consumers.info(STREAMS.EVENTS.name, INDEXER_DURABLE);
      if (info.num_pending === 0 && info.num_ack_pending === 0) return (performance.now() - started) / 1000;
      if (performance.now() - started > timeoutMs) throw new Error("the search indexer did not catch up");
      await Bun.sleep(200);
    }
  } finally {
    await nc.close();
  }
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export const searchSection: BenchSection = {
  name: "search",
  async run(ctx) {
    const t = await newTenant(ctx.stack.baseUrl, ctx.stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
    const api = apiClient(ctx.stack.baseUrl, t.key);
    const tag = (await api.post("/v1/tags", { name: "bench" })).body.data.id as string;
    const redis = new Redis(ctx.stack.redisUrl);
    let have = 0;
    try {
      for (const size of SIZES) {
        let failures = 0;
        const started = performance.now();
        const from = have;
        await pool(size - from, INGEST_IN_FLIGHT, async (j) => {
          const i = from + j;
          const res = await api.post("/v1/memories", {
            content: sentence(i),
            tier: ["short", "medium", "long"][i % 3],
          });
          if (res.status !== 200) return void failures++;
          if (
            i % TAGGED_EVERY === 0 &&
            (await api.post(`/v1/memories/${res.body.data.id}/tags`, { tag_ids: [tag] })).status !== 200
          )
            failures++;
        });
        have = size;
        const ingestS = (performance.now() - started) / 1000;
        console.log(
          `${size} memories: ingested ${size - from} in ${ingestS.toFixed(0)} s = ` +
            `${((size - from) / ingestS).toFixed(1)} memories/s at ${INGEST_IN_FLIGHT} in flight ` +
            `(${failures} failures)`,
        );
        // Every write was searchable when it returned; the events behind it are no-ops by now.
        console.log(
          `  event indexer caught up ${(await indexerDrained(ctx.stack.natsUrl)).toFixed(1)} s after the last write`,
        );
        // After a bulk load Redis soon rewrites its AOF by itself (a fork, then seconds of CPU in the
        // child on these two cores), typically in the middle of the queries: the tail measured would
        // be the rewrite's. As an operator would after a bulk import, rewrite it now and measure after.
        console.log(`  AOF rewritten after the load in ${(await rewriteAof(redis)).toFixed(1)} s`);
        // Warm-up, not measured.
        for (let q = 0; q < 20; q++) await api.post("/v1/search", { query: query(size + q), limit: 10 });

        // Redis bytes of this tenant's search index (vectors, postings, filter sets, records).
        let bytes = 0;
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `s:\\{${t.tenant}:live\\}:*`, "COUNT", 1000);
          cursor = next;
          const sizes = await Promise.all(
            keys.map((k) => redis.memory("USAGE", k, "SAMPLES", "0") as Promise<number | null>),
          );
          bytes += sizes.reduce<number>((a, b) => a + (b ?? 0), 0);
        } while (cursor !== "0");
        console.log(
          `  search index: ${(bytes / size / 1024).toFixed(2)} KiB per memory ` +
            "(vector int8 512 + HNSW links + attributes + postings + filter sets)",
        );

        const cases = [
          ["no filter", {}],
          ["tier filter", { tier: "short" }],
          ["tag filter", { tags: [tag] }],
        ] as const;
        for (const [n, [label, filters]] of cases.entries()) {
          // Distinct queries per case: a repeated query would be served from the embedding cache.
          const seed = (size * 10 + n) * 100_000;
          const lat: number[] = [];
          for (let q = 0; q < SINGLE_CLIENT_QUERIES; q++) {
            const s = performance.now();
            const res = await api.post("/v1/search", { query: query(seed + q), limit: 10, ...filters });
            if (res.status !== 200) throw new Error(`search failed: ${res.status} ${JSON.stringify(res.body)}`);
            lat.push(performance.now() - s);
          }
          const bodies = Array.from({ length: 2000 }, (_, q) =>
            JSON.stringify({ query: query(seed + 50_000 + q), limit: 10, ...filters }),
          );
          const load = await medianOf(1, {
            url: `${ctx.stack.baseUrl}/v1/search`,
            method: "POST",
            headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" },
            bodies,
            connections: 8,
            durationS: ctx.durationS,
          });
          console.log(
            `  ${label.padEnd(12)} single client p50 ${pct(lat, 50).toFixed(1)} ms ` +
              `p99 ${pct(lat, 99).toFixed(1)} ms | 8 clients ${fmt(load)}`,
          );
        }
      }
    } finally {
      redis.disconnect();
    }
  },
};
