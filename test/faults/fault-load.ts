import type { Stack } from "../../scripts/stack/launch";
import { type Client, Recorder, tenantClient } from "./fault-recorder";

/** The load a fault test drives: closed and open loops, and a mixed workload of memories and tags. */

/** `concurrency` workers, each issuing one request after the other until `until()` is true or `maxMs` has passed. */
export async function closedLoop(opts: {
  concurrency: number;
  maxMs: number;
  until?: () => boolean;
  task: (worker: number) => Promise<unknown>;
}) {
  const deadline = performance.now() + opts.maxMs;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async (_, w) => {
      while (performance.now() < deadline && !opts.until?.()) await opts.task(w);
    }),
  );
}

/**
 * Open-loop load: `rate` requests per second for `durationMs`, started on a fixed schedule whatever the
 * answers take (latency is measured from the request's own start, so slow answers cannot hide by
 * slowing the sender). At most `maxInFlight` outstanding; a tick that finds the cap reached counts the
 * requests it could not send in `dropped`.
 */
export async function fixedRate(opts: {
  rate: number;
  durationMs: number;
  maxInFlight: number;
  task: (i: number) => Promise<unknown>;
}) {
  const started = performance.now();
  const tickMs = 10;
  let sent = 0;
  let dropped = 0;
  let inFlight = 0;
  const running: Promise<unknown>[] = [];
  while (performance.now() - started < opts.durationMs) {
    const due = Math.floor(((performance.now() - started) * opts.rate) / 1000);
    while (sent + dropped < due) {
      if (inFlight >= opts.maxInFlight) {
        dropped++;
        continue;
      }
      inFlight++;
      const p = opts.task(sent++).finally(() => inFlight--);
      running.push(p);
    }
    await Bun.sleep(tickMs);
  }
  await Promise.all(running);
  return { sent, dropped };
}

const pick = <X>(xs: X[]) => xs[Math.floor(Math.random() * xs.length)]!;

/**
 * Memories create/get/list/update and tags list/get/attach, in fixed proportions, on one tenant.
 * `seed` creates the memories and tags the reads need; ids created under load join the pool.
 */
export function mixedWorkload(client: Client) {
  const memoryIds: string[] = [];
  const tagIds: string[] = [];
  let n = 0;
  const ops: [number, () => Promise<unknown>][] = [
    [
      20,
      async () => {
        const r = await client.call("memories.create", "POST", "/v1/memories", {
          content: `load memory ${n++} ${crypto.randomUUID()}`,
          tier: pick(["short", "medium", "long"]),
        });
        if (r.status === 200) memoryIds.push(r.body.data.id);
      },
    ],
    [30, () => client.call("memories.get", "GET", `/v1/memories/${pick(memoryIds)}`)],
    [15, () => client.call("memories.list", "GET", `/v1/memories?limit=20&tier=${pick(["short", "medium", "long"])}`)],
    [10, () => client.call("memories.update", "PATCH", `/v1/memories/${pick(memoryIds)}`, { metadata: { n: n++ } })],
    [10, () => client.call("tags.attach", "POST", `/v1/memories/${pick(memoryIds)}/tags`, { tag_ids: [pick(tagIds)] })],
    [10, () => client.call("tags.list", "GET", "/v1/tags?limit=20")],
    [5, () => client.call("tags.get", "GET", `/v1/tags/${pick(tagIds)}`)],
  ];
  const total = ops.reduce((a, [w]) => a + w, 0);
  return {
    memoryIds,
    tagIds,
    async seed(memories = 20, tags = 5) {
      for (let i = 0; i < tags; i++) {
        const r = await client.call("seed", "POST", "/v1/tags", {
          name: `tag-${i}-${crypto.randomUUID().slice(0, 6)}`,
        });
        if (r.status !== 200) throw new Error(`seed tag: ${r.status} ${JSON.stringify(r.body)}`);
        tagIds.push(r.body.data.id);
      }
      for (let i = 0; i < memories; i++) {
        const r = await client.call("seed", "POST", "/v1/memories", { content: `seed memory ${i}` });
        if (r.status !== 200) throw new Error(`seed memory: ${r.status} ${JSON.stringify(r.body)}`);
        memoryIds.push(r.body.data.id);
      }
    },
    /** One request of the mix. */
    next(): Promise<unknown> {
      let r = Math.random() * total;
      for (const [w, run] of ops) {
        if ((r -= w) < 0) return run();
      }
      return ops[0]![1]();
    },
  };
}

/**
 * A fresh tenant's seeded mixed workload from 8 clients in a closed loop (for at most `maxMs`);
 * `start` is when the loop began (after `beforeStart`). `stop()` ends it: no client sends again, and
 * it resolves once each one's last request is answered.
 */
export async function mixedLoad(stack: Stack, opts: { maxMs?: number; beforeStart?: () => Promise<void> } = {}) {
  const rec = new Recorder();
  const client = await tenantClient(stack, rec);
  const load = mixedWorkload(client);
  await load.seed();
  await opts.beforeStart?.();
  const start = rec.now();
  let done = false;
  const traffic = closedLoop({
    concurrency: 8,
    maxMs: opts.maxMs ?? 60_000,
    until: () => done,
    task: () => load.next(),
  });
  return {
    rec,
    client,
    /** Ids of the memories whose create was acknowledged (seeded ones first). */
    memoryIds: load.memoryIds,
    start,
    stop(): Promise<void> {
      done = true;
      return traffic;
    },
  };
}
