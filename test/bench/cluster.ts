import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type StackOptions } from "../../scripts/stack/launch";
import { newTenant } from "../api";
import Redis from "ioredis";
import { fmt, type LoadResult, medianOf, runLoad } from "./load";
import type { BenchContext, BenchSection } from "./sections";

const CONTENT = "A memory of about two hundred bytes, as a chat turn would be, stored and read back again. ".repeat(2);

/** Create and get throughput of one stack (without search: the data path alone). */
async function createAndGet(ctx: BenchContext, name: string, opts: Omit<StackOptions, "dataDir">) {
  const dataDir = mkdtempSync(join(resolve(".data-bench"), `cluster-${name}-`));
  const stack = await startStack({ ...opts, dataDir, without: ["search"], env: { LOG_LEVEL: "error", ...opts.env } });
  try {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
    const headers = { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" };
    const id = (await t.api.post("/v1/memories", { content: CONTENT })).body.data.id;
    const spec = { connections: ctx.connections, durationS: ctx.durationS, headers };
    const bodies = Array.from({ length: 64 }, (_, i) => JSON.stringify({ content: `${i} ${CONTENT}` }));
    const create = await medianOf(ctx.runs, { ...spec, url: `${stack.baseUrl}/v1/memories`, method: "POST", bodies });
    const get = await medianOf(ctx.runs, { ...spec, url: `${stack.baseUrl}/v1/memories/${id}` });
    console.log(`${name.padEnd(36)} create ${fmt(create)}\n${"".padEnd(36)} get    ${fmt(get)}`);
    if (stack.redis) {
      // Redis CPU per request, from one more run of each: what a paper estimate of more primaries starts from.
      const redis = new Redis(stack.redisUrl);
      const cpu = async () => {
        const info = await redis.info("cpu");
        return ["used_cpu_sys", "used_cpu_user"].reduce(
          (t, f) => t + Number(new RegExp(`${f}:([\\d.]+)`).exec(info)![1]),
          0,
        );
      };
      for (const [what, load] of [
        ["create", { ...spec, url: `${stack.baseUrl}/v1/memories`, method: "POST" as const, bodies }],
        ["get", { ...spec, url: `${stack.baseUrl}/v1/memories/${id}` }],
      ] as const) {
        const before = await cpu();
        const r = await runLoad(load);
        const usPerRequest = (((await cpu()) - before) * 1e6) / r.requests;
        console.log(`${"".padEnd(36)} ${what}: Redis CPU ${usPerRequest.toFixed(0)} µs per request`);
      }
      redis.disconnect();
    }
    return { create, get };
  } finally {
    await stack.stop();
  }
}

const x = (a: LoadResult, b: LoadResult) => (a.rps / b.rps).toFixed(3);

/**
 * The same load on one Redis and on a Redis Cluster of 3 primaries, then on the cluster with
 * REDIS_WAIT_REPLICAS=1 (2 replicas per primary). All of it shares the machine's 2 cores, so the
 * cluster's ratio shows its overhead (more processes, redirections), not the speed-up of more machines.
 */
export const clusterSection: BenchSection = {
  name: "cluster",
  async run(ctx) {
    const single = await createAndGet(ctx, "single Redis, single NATS", {});
    const cluster = await createAndGet(ctx, "Redis Cluster 3×(1+1), NATS ×3", { cluster: true });
    const waiting = await createAndGet(ctx, "REDIS_WAIT_REPLICAS=1, 3×(1+2)", {
      cluster: { redisReplicas: 2 },
      env: { REDIS_WAIT_REPLICAS: "1" },
    });
    console.log(
      `cluster / single: create ${x(cluster.create, single.create)}, get ${x(cluster.get, single.get)}; ` +
        `wait / cluster: create ${x(waiting.create, cluster.create)}, get ${x(waiting.get, cluster.get)}`,
    );
  },
};
