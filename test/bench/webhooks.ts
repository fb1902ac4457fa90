import { apiClient, newTenant } from "../api";
import { eventIdOf } from "../../services/webhooks/payload";
import { median, percentile } from "./load";
import type { BenchSection } from "./sections";

/**
 * Webhook deliveries to a receiver on loopback (the bench stack allow-lists 127.0.0.1):
 * - latency: one memory written at a time, from the write's request to its delivery's arrival, and the part
 *   added after the write's answer;
 * - throughput: a burst of test pings (the delivery pipeline alone: enqueue, claim, sign, POST, settle), and a
 *   burst of memory writes (the whole path: EVENTS, the dispatcher, then the same pipeline).
 */
const SEQUENTIAL = Number(process.env.BENCH_WEBHOOK_SEQUENTIAL ?? 300);
const BURST = Number(process.env.BENCH_WEBHOOK_BURST ?? 2000);

export const webhooksSection: BenchSection = {
  name: "webhooks",
  async run(ctx) {
    const arrivals = new Map<string, number>();
    const waiting = new Map<string, () => void>();
    const receiver = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const id = req.headers.get("webhook-id") ?? "";
        await req.arrayBuffer();
        if (!arrivals.has(id)) arrivals.set(id, performance.now());
        waiting.get(id)?.();
        return new Response("ok");
      },
    });
    const arrived = (id: string) =>
      arrivals.has(id) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(id, resolve));
    try {
      const t = await newTenant(ctx.stack.baseUrl, ctx.stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
      const api = apiClient(ctx.stack.baseUrl, t.key);
      const url = `http://127.0.0.1:${receiver.port}/bench`;
      const hook = await api.post("/v1/webhooks", { url, events: ["memory.created"] });
      if (hook.status !== 200) throw new Error(`webhook not created: ${JSON.stringify(hook.body)}`);
      const webhookId = hook.body.data.id as string;

      const total: number[] = [];
      const added: number[] = [];
      for (let i = 0; i < SEQUENTIAL; i++) {
        const started = performance.now();
        const res = await api.post("/v1/memories", { content: `webhook latency ${i}` });
        const answered = performance.now();
        if (res.status !== 200) throw new Error(`write failed: ${res.status}`);
        const id = eventIdOf({ memory_id: res.body.data.id, version: 1 });
        await arrived(id);
        total.push(arrivals.get(id)! - started);
        added.push(Math.max(0, arrivals.get(id)! - answered));
      }
      const ms = (xs: number[], p: number) => percentile(xs, p).toFixed(2);
      console.log(
        `write → delivery, one at a time (${SEQUENTIAL})   p50 ${ms(total, 50)} ms  p99 ${ms(total, 99)} ms;` +
          `  after the write's answer: p50 ${ms(added, 50)} ms  p99 ${ms(added, 99)} ms`,
      );

      /** `count` requests from ctx.connections clients; resolves deliveries/s and request → delivery latencies. */
      const burst = async (count: number, send: (i: number) => Promise<string>) => {
        const sentAt = new Map<string, number>();
        let next = 0;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: ctx.connections }, async () => {
            while (next < count) {
              const i = next++;
              const at = performance.now();
              sentAt.set(await send(i), at);
            }
          }),
        );
        const written = performance.now();
        await Promise.all([...sentAt.keys()].map(arrived));
        const last = Math.max(...[...sentAt.keys()].map((id) => arrivals.get(id)!));
        return {
          rate: (count * 1000) / (last - started),
          sendRate: (count * 1000) / (written - started),
          latency: [...sentAt].map(([id, at]) => arrivals.get(id)! - at),
        };
      };
      const report = (label: string, runs: Awaited<ReturnType<typeof burst>>[], what: string) =>
        console.log(
          `${label} ${median(runs.map((r) => r.rate)).toFixed(0)} deliveries/s (${what} sent at ` +
            `${median(runs.map((r) => r.sendRate)).toFixed(0)}/s); request → delivery ` +
            `p50 ${median(runs.map((r) => percentile(r.latency, 50))).toFixed(1)} ms ` +
            `p99 ${median(runs.map((r) => percentile(r.latency, 99))).toFixed(1)} ms`,
        );

      const pings = [];
      for (let run = 0; run < ctx.runs; run++)
        pings.push(
          await burst(BURST, async () => {
            const res = await api.post(`/v1/webhooks/${webhookId}/test`);
            if (res.status !== 200) throw new Error(`ping failed: ${res.status}`);
            return res.body.data.event_id as string;
          }),
        );
      report(`pings, burst of ${BURST}, ${ctx.connections} clients:`, pings, "pings");

      const writes = [];
      for (let run = 0; run < ctx.runs; run++)
        writes.push(
          await burst(BURST / 4, async (i) => {
            const res = await api.post("/v1/memories", { content: `webhook burst ${run} ${i}` });
            if (res.status !== 200) throw new Error(`write failed: ${res.status}`);
            return eventIdOf({ memory_id: res.body.data.id, version: 1 });
          }),
        );
      report(`memory writes, burst of ${BURST / 4}:`, writes, "writes");
    } finally {
      receiver.stop(true);
    }
  },
};
