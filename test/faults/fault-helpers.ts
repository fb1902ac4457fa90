import { afterAll, beforeAll } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type Stack, type StackOptions } from "../../scripts/stack/launch";
import { newTenant } from "../api";

/**
 * Shared by the fault tests (test/faults/*.test.ts): each test starts its OWN stack (it kills parts
 * of it), drives bounded load from this process over loopback, and records every request.
 */

/** A private stack under .data-test/faults-<name>-XXXX (logs stay there for post-mortems). */
async function faultStack(name: string, opts: Omit<StackOptions, "dataDir"> = {}): Promise<Stack> {
  const root = resolve(process.env.TEST_DATA_ROOT ?? ".data-test");
  mkdirSync(root, { recursive: true });
  const dataDir = mkdtempSync(join(root, `faults-${name}-`));
  return startStack({ ...opts, dataDir, env: { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "10000000", ...opts.env } });
}

/**
 * The stack of one fault test file (call at its top level): started before its tests, stopped after
 * them. Tests read `.stack`. `when: false` starts nothing (a topology without the part under test).
 */
export function fileStack(
  name: string,
  opts: Omit<StackOptions, "dataDir"> & { when?: boolean } = {},
): { readonly stack: Stack } {
  const { when = true, ...stackOpts } = opts;
  const holder = {} as { stack: Stack };
  beforeAll(async () => {
    if (when) holder.stack = await faultStack(name, stackOpts);
  }, 120_000);
  afterAll(async () => {
    await holder.stack?.stop();
  }, 60_000);
  return holder;
}

export interface Sample {
  op: string;
  /** ms since the recorder's origin */
  start: number;
  end: number;
  /** HTTP status; 0 = no answer (network error or our hang guard fired). */
  status: number;
  code?: string;
}

/** A request taking longer than this counts as a hang (status 0). */
export const HANG_MS = 10_000;

export interface Client {
  key: string;
  tenant: string;
  /** One request, recorded; resolves with the parsed body (or null) and never rejects. */
  call(op: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export class Recorder {
  readonly origin = performance.now();
  readonly samples: Sample[] = [];
  now = () => performance.now() - this.origin;

  client(baseUrl: string, key: string, tenant: string): Client {
    return {
      key,
      tenant,
      call: async (op, method, path, body) => {
        const start = this.now();
        let status = 0;
        let parsed: any = null;
        try {
          const res = await fetch(baseUrl + path, {
            method,
            headers: {
              Authorization: `Bearer ${key}`,
              ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
            signal: AbortSignal.timeout(HANG_MS),
          });
          status = res.status;
          const text = await res.text();
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
        } catch {
          status = 0;
        }
        this.samples.push({ op, start, end: this.now(), status, code: parsed?.error?.code });
        return { status, body: parsed };
      },
    };
  }
}

export async function tenantClient(stack: Stack, rec: Recorder): Promise<Client> {
  const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
  return rec.client(stack.baseUrl, t.key, t.tenant);
}

// ------------------------------------------------------------------ figures

export const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

export interface Summary {
  requests: number;
  failed: number;
  byStatus: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  rps: number;
}

export function summarize(samples: Sample[]): Summary {
  const lat = samples.map((s) => s.end - s.start);
  const byStatus: Record<string, number> = {};
  for (const s of samples) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  const span = samples.length ? Math.max(...samples.map((s) => s.end)) - Math.min(...samples.map((s) => s.start)) : 0;
  return {
    requests: samples.length,
    failed: samples.filter((s) => s.status !== 200).length,
    byStatus,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    max: lat.length ? Math.max(...lat) : NaN,
    rps: span > 0 ? (samples.length * 1000) / span : 0,
  };
}

export const fmtSummary = (s: Summary) =>
  `${s.requests} requests, ${s.failed} failed ${JSON.stringify(s.byStatus)}, ${s.rps.toFixed(0)} req/s, ` +
  `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

/** Every figure line starts with the test's tag, so `grep '\[fault' ` collects them for docs/operations.md. */
export const figure = (tag: string, line: string) => console.log(`[fault ${tag}] ${line}`);

// ------------------------------------------------------------------ load shapes

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

/** Polls `check` every `everyMs` until it returns true or `maxMs` passes; resolves the elapsed ms or null. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  maxMs: number,
  everyMs = 50,
): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < maxMs) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return performance.now() - started;
    await Bun.sleep(everyMs);
  }
  return null;
}

// ------------------------------------------------------------------ a mixed workload

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

// ------------------------------------------------------------------ replicas

/** How many replicas of a service answer `$SRV.PING.<name>` right now (distinct instance ids). */
export async function replicasAnswering(natsUrl: string, name: string, waitMs = 300): Promise<number> {
  const { connect } = await import("nats");
  const nc = await connect({ servers: natsUrl, reconnect: false, timeout: 1000 });
  try {
    const ids = new Set<string>();
    const replies = await nc.requestMany(`$SRV.PING.${name}`, undefined, { maxWait: waitMs });
    for await (const m of replies) ids.add((m.json() as { id: string }).id);
    return ids.size;
  } finally {
    await nc.close();
  }
}

/** Waits until `count` replicas of each service answer PING (bounded by `maxMs`). */
export async function waitReplicas(
  natsUrl: string,
  names: readonly string[],
  count: number,
  maxMs = 20_000,
): Promise<void> {
  for (const name of names) {
    const ok = await waitFor(async () => (await replicasAnswering(natsUrl, name)) >= count, maxMs, 100);
    if (ok === null) throw new Error(`${name}: fewer than ${count} replicas answer PING after ${maxMs} ms`);
  }
}

/** Durable JetStream consumers of every stream, with what they still have to process. */
export async function consumersBacklog(natsUrl: string) {
  const { connect } = await import("nats");
  const { STREAMS } = await import("../../services/contract/streams");
  const nc = await connect({ servers: natsUrl, reconnect: false, timeout: 2000 });
  try {
    const jsm = await nc.jetstreamManager({ timeout: 2000 });
    const out: { name: string; pending: number; ackPending: number }[] = [];
    for (const s of Object.values(STREAMS)) {
      for await (const c of jsm.consumers.list(s.name)) {
        if (c.config.durable_name)
          out.push({ name: `${s.name}/${c.name}`, pending: c.num_pending, ackPending: c.num_ack_pending });
      }
    }
    return out;
  } finally {
    await nc.close();
  }
}

/** Names of the stack's processes that have exited (none should, whatever Redis or NATS do). */
export const exitedProcesses = (stack: Stack) =>
  [stack.gateway, ...Object.values(stack.services).flat()]
    .filter((c) => c.proc.exitCode !== null || c.proc.signalCode !== null)
    .map((c) => c.name);

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
    start,
    stop(): Promise<void> {
      done = true;
      return traffic;
    },
  };
}
