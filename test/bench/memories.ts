import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import Redis from "ioredis";
import { startStack } from "../../scripts/stack/launch";
import { apiClient, newTenant } from "../api";
import { fmt, interleavedMedians, medianOf, pool } from "./load";
import type { BenchSection } from "./sections";
import { ratio } from "./sections";

const KIB_CONTENT = "The quick brown fox jumps over the lazy dog while memories accumulate. ".repeat(15).slice(0, 1024);
const BYTES_SAMPLE = Number(process.env.BENCH_MEMORY_SAMPLE ?? 50_000);

/**
 * Create/get/list through the gateway, and Redis bytes per memory (1 KiB content, 3 tags).
 * Runs on its own stack without the search service: the figures are "before embeddings".
 */
export const memoriesSection: BenchSection = {
  name: "memories",
  async run(ctx) {
    const dataDir = mkdtempSync(join(resolve(".data-bench"), "memories-"));
    const stack = await startStack({ dataDir, without: ["search"], env: { LOG_LEVEL: "error" } });
    try {
      const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
      const headers = { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" };
      const seed = await t.api.post("/v1/memories", { content: KIB_CONTENT });
      const id = seed.body.data.id;
      for (let i = 0; i < 20; i++) await t.api.post("/v1/memories", { content: `${i} ${KIB_CONTENT}` });
      const bodies = Array.from({ length: 64 }, (_, i) =>
        JSON.stringify({ content: `${i} ${KIB_CONTENT}`, tier: ["short", "medium", "long"][i % 3] }),
      );
      const spec = { connections: ctx.connections, durationS: ctx.durationS };
      // The same creates in a tenant with storage quotas set (far off), in turns with the unlimited tenant: what
      // the quota check costs.
      const q = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
      const quota = { memories: 1_000_000_000, bytes: 1_000_000_000_000 };
      await apiClient(stack.baseUrl, stack.adminKey).patch("/v1/tenant", { tenant_id: q.tenant, quota });
      const creates = { ...spec, url: `${stack.baseUrl}/v1/memories`, method: "POST" as const, bodies };
      const [create, limited] = await interleavedMedians(ctx.runs, [
        { ...creates, headers },
        { ...creates, headers: { ...headers, Authorization: `Bearer ${q.key}` } },
      ]);
      console.log(`POST /v1/memories (1 KiB)            ${fmt(create!)}   /hello ${ratio(create!, ctx.baseline)}`);
      console.log(`POST /v1/memories (1 KiB, quotas)    ${fmt(limited!)}   /unlimited ${ratio(limited!, create!)}`);
      const get = await medianOf(ctx.runs, { ...spec, url: `${stack.baseUrl}/v1/memories/${id}`, headers });
      console.log(`GET /v1/memories/:id                 ${fmt(get)}   /hello ${ratio(get, ctx.baseline)}`);
      const list = await medianOf(ctx.runs, {
        ...spec,
        url: `${stack.baseUrl}/v1/memories?limit=20&tier=short`,
        headers,
      });
      console.log(`GET /v1/memories?limit=20&tier=short ${fmt(list)}   /hello ${ratio(list, ctx.baseline)}`);

      // Redis bytes per memory, measured in a fresh tenant from INFO memory.
      const b = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
      const tagIds: string[] = [];
      for (const name of ["alpha", "beta", "gamma"]) tagIds.push((await b.api.post("/v1/tags", { name })).body.data.id);
      const redis = new Redis(stack.redisUrl);
      const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.info("memory"))![1]);
      const before = await usedMemory();
      const api = apiClient(stack.baseUrl, b.key);
      let failures = 0;
      const started = performance.now();
      await pool(BYTES_SAMPLE, 48, async (i) => {
        const created = await api.post("/v1/memories", { content: `${i} ${KIB_CONTENT}`.slice(0, 1024) });
        if (created.status !== 200) return void failures++;
        const attached = await api.post(`/v1/memories/${created.body.data.id}/tags`, { tag_ids: tagIds });
        if (attached.status !== 200) failures++;
      });
      const seconds = (performance.now() - started) / 1000;
      const after = await usedMemory();
      redis.disconnect();
      const perMemory = (after - before) / BYTES_SAMPLE;
      console.log(
        `Redis memory: ${BYTES_SAMPLE} memories × (1 KiB + 3 tags) → ${(perMemory / 1024).toFixed(2)} KiB each, ` +
          `${((perMemory - 1024) / 1024).toFixed(2)} KiB beyond the content (${failures} failures, ` +
          `${(BYTES_SAMPLE / seconds).toFixed(0)} create+attach pairs/s at 48 in flight)`,
      );
    } finally {
      await stack.stop();
    }
  },
};
