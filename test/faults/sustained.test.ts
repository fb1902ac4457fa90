import { expect, test } from "bun:test";
import { consumersBacklog, fileStack, waitFor } from "./fault-stack";
import { closedLoop, fixedRate, mixedWorkload } from "./fault-load";
import { Recorder, tenantClient } from "./fault-recorder";
import { figure, fmtSummary, summarize } from "./fault-figures";

/**
 * Fault 6 (the baseline the others are read against): measure the maximum throughput of the mixed
 * workload with a short closed-loop run, then hold half of it at a fixed rate for 60 s. Half of the
 * maximum must be served with 0 errors and a bounded p99. Set FAULT_SUSTAINED_S to shorten it locally.
 */
const SUSTAIN_S = Number(process.env.FAULT_SUSTAINED_S ?? 60);

const fault = fileStack("sustained");

test(`sustained mixed load at 50% of the measured maximum for ${SUSTAIN_S} s: 0 errors`, async () => {
  const stack = fault.stack;
  const rec = new Recorder();
  const client = await tenantClient(stack, rec);
  const load = mixedWorkload(client);
  await load.seed(50, 10);

  // 1. The maximum: 32 clients back to back for 8 s (after 2 s of warm-up).
  await closedLoop({ concurrency: 32, maxMs: 2000, task: () => load.next() });
  const maxFrom = rec.now();
  await closedLoop({ concurrency: 32, maxMs: 8000, task: () => load.next() });
  const max = summarize(rec.samples.filter((s) => s.start >= maxFrom));
  const okRps = (max.rps * (max.requests - max.failed)) / Math.max(1, max.requests);
  // Background work the burst queued (index events, usage batches) finishes before the steady phase.
  const quietMs = await waitFor(
    async () => (await consumersBacklog(stack.natsUrl)).every((c) => c.pending === 0 && c.ackPending === 0),
    60_000,
    250,
  );

  // 2. Half of it, open loop, for SUSTAIN_S seconds.
  const rate = Math.max(10, Math.floor(okRps / 2));
  const steadyFrom = rec.now();
  const { sent, dropped } = await fixedRate({
    rate,
    durationMs: SUSTAIN_S * 1000,
    maxInFlight: 512,
    task: () => load.next(),
  });
  const steady = summarize(rec.samples.filter((s) => s.start >= steadyFrom));
  const byOp = new Map<string, number[]>();
  for (const s of rec.samples.filter((x) => x.start >= steadyFrom))
    byOp.set(s.op, [...(byOp.get(s.op) ?? []), s.end - s.start]);

  figure(
    "6 sustained",
    "maximum (32 closed-loop clients, 8 s, mixed 20% create / 30% get / 15% list / 10% update / 10% attach / " +
      `15% tags): ${fmtSummary(max)}`,
  );
  figure("6 sustained", `background work drained ${quietMs?.toFixed(0)} ms after the burst`);
  figure(
    "6 sustained",
    `${SUSTAIN_S} s at ${rate} req/s (50% of ${okRps.toFixed(0)}): ` +
      `sent ${sent}, not sent (in-flight cap) ${dropped}, ` +
      `${fmtSummary(steady)}, error rate ${((100 * steady.failed) / Math.max(1, steady.requests)).toFixed(3)}%`,
  );
  const p99 = (op: string, xs: number[]) =>
    summarize(xs.map((ms) => ({ op, start: 0, end: ms, status: 200 }))).p99.toFixed(1);
  figure("6 sustained", `p99 by operation: ${[...byOp].map(([op, xs]) => `${op} ${p99(op, xs)} ms`).join(", ")}`);

  expect(max.requests).toBeGreaterThan(500);
  expect(dropped).toBe(0);
  expect(steady.requests).toBe(sent);
  expect(steady.failed).toBe(0);
  expect(steady.p99).toBeLessThan(1000);
}, 240_000);
