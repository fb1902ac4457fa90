import { apiClient, newTenant } from "../api";
import { callTool, httpClient } from "../mcp/mcp-client";
import { median, percentile } from "./load";
import { indexerDrained } from "./search";
import type { BenchSection } from "./sections";
import { query, sentence } from "./sentences";

/**
 * MCP `recall` against REST `POST /v1/search`: one client, the same queries, interleaved so both see the
 * same machine. Each round times QUERIES calls of each; the figures are medians over the runs.
 */
const MEMORIES = Number(process.env.BENCH_MCP_MEMORIES ?? 2000);
const QUERIES = Number(process.env.BENCH_MCP_QUERIES ?? 200);

export const mcpSection: BenchSection = {
  name: "mcp",
  async run(ctx) {
    const t = await newTenant(ctx.stack.baseUrl, ctx.stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
    const api = apiClient(ctx.stack.baseUrl, t.key);
    for (let i = 0; i < MEMORIES; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, MEMORIES - i) }, (_, j) =>
          api.post("/v1/memories", { content: sentence(i + j) }),
        ),
      );
    await indexerDrained(ctx.stack.natsUrl);
    const client = await httpClient(ctx.stack.baseUrl, t.key);
    try {
      const rest: { p50: number; p99: number }[] = [];
      const mcp: { p50: number; p99: number }[] = [];
      for (let run = 0; run < ctx.runs; run++) {
        const restMs: number[] = [];
        const mcpMs: number[] = [];
        for (let i = 0; i < QUERIES; i++) {
          const q = query(run * QUERIES + i);
          let started = performance.now();
          const r = await api.post("/v1/search", { query: q, limit: 10 });
          restMs.push(performance.now() - started);
          started = performance.now();
          const m = await callTool(client, "recall", { query: q, limit: 10 });
          mcpMs.push(performance.now() - started);
          if (r.status !== 200 || m.isError) throw new Error(`a query failed: ${r.status} ${JSON.stringify(m.data)}`);
        }
        rest.push({ p50: percentile(restMs, 50), p99: percentile(restMs, 99) });
        mcp.push({ p50: percentile(mcpMs, 50), p99: percentile(mcpMs, 99) });
      }
      const line = (label: string, xs: { p50: number; p99: number }[]) =>
        console.log(
          `${label.padEnd(28)} p50 ${median(xs.map((x) => x.p50)).toFixed(2)} ms  ` +
            `p99 ${median(xs.map((x) => x.p99)).toFixed(2)} ms`,
        );
      console.log(`${MEMORIES} memories, one client, ${QUERIES} queries of each per run`);
      line("REST POST /v1/search", rest);
      line("MCP recall (Streamable HTTP)", mcp);
    } finally {
      await client.close();
    }
  },
};
