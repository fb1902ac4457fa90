import { expect, test } from "bun:test";
import Redis from "ioredis";
import { newTenant } from "../api";
import { fileStack } from "./fault-stack";
import { figure } from "./fault-figures";
import { clusterNodes } from "./cluster-topology";

/**
 * How 1,000 tenants spread over a Redis Cluster of 3 primaries: each tenant's data lives in the slot of
 * its hash tag, so tenants, and with them keys and memory, should land evenly (within ±15 % of a third).
 */
const fault = fileStack("cluster-spread", { cluster: true });
const TENANTS = 1000;

test(`${TENANTS} tenants with a key and 3 memories each spread over 3 primaries within ±15 % of even`, async () => {
  const stack = fault.stack;
  const primaries = (await clusterNodes(stack)).filter((n) => n.primary);
  const stats = async () =>
    Promise.all(
      primaries.map(async (n) => {
        const redis = new Redis({ host: "127.0.0.1", port: n.port });
        try {
          const keys = await redis.dbsize();
          const memory = Number(/used_memory:(\d+)/.exec(await redis.info("memory"))![1]);
          return { port: n.port, keys, memory };
        } finally {
          redis.disconnect();
        }
      }),
    );
  const before = await stats();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < TENANTS) {
        next++;
        const t = await newTenant(stack.baseUrl, stack.adminKey, { rate_limit: 1_000_000 });
        for (let m = 0; m < 3; m++) {
          const r = await t.api.post("/v1/memories", { content: `memory ${m} of tenant ${t.tenant}` });
          if (r.status !== 200) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
        }
      }
    }),
  );
  const after = await stats();
  const keys = after.map((a, i) => a.keys - before[i]!.keys);
  const memory = after.map((a, i) => a.memory - before[i]!.memory);
  const share = (xs: number[]) => xs.map((x) => x / xs.reduce((s, y) => s + y, 0));
  const pct = (xs: number[]) =>
    share(xs)
      .map((s) => `${(s * 100).toFixed(1)} %`)
      .join(" / ");
  figure("cluster-spread", `${TENANTS} tenants: keys per primary ${keys.join(" / ")} (${pct(keys)})`);
  figure(
    "cluster-spread",
    `memory added per primary ${memory.map((m) => `${(m / 1048576).toFixed(1)} MiB`).join(" / ")} (${pct(memory)})`,
  );
  for (const s of share(keys)) expect(Math.abs(s - 1 / 3)).toBeLessThanOrEqual(0.15 / 3);
  for (const s of share(memory)) expect(Math.abs(s - 1 / 3)).toBeLessThanOrEqual(0.15 / 3);
}, 300_000);
