import { expect, test } from "bun:test";
import { SERVICE_NAMES, type ServiceName } from "../../scripts/stack/launch";
import { fileStack, waitReplicas } from "./fault-stack";
import { mixedLoad } from "./fault-load";
import { figure, fmtSummary, summarize } from "./fault-figures";

/**
 * Fault 1: a rolling restart. Two replicas of every service; under a steady mixed load, SIGTERM one
 * replica of each (all at once), start replacements, then SIGTERM the other originals. Every request
 * must succeed: a stopping replica finishes what it took and takes nothing new.
 */
const names = SERVICE_NAMES as readonly ServiceName[];

const fault = fileStack("sigterm", { replicas: Object.fromEntries(names.map((n) => [n, 2])) });

test("SIGTERM of one replica of each service under mixed load: 0 failed requests, exit code 0", async () => {
  const stack = fault.stack;
  const load = await mixedLoad(stack);
  const { rec, start: loadStart } = load;

  await Bun.sleep(2000);
  const firstWave = names.map((n) => stack.services[n][0]!);
  const t0 = performance.now();
  const codes1 = await Promise.all(firstWave.map((c) => c.stop()));
  const stop1Ms = performance.now() - t0;
  // Replacements, then the remaining originals: a full rolling update under load.
  const replacements = names.map((n) => stack.addReplica(n));
  await waitReplicas(stack.natsUrl, names, 2);
  const secondWave = names.map((n) => stack.services[n][1]!);
  const t1 = performance.now();
  const codes2 = await Promise.all(secondWave.map((c) => c.stop()));
  const stop2Ms = performance.now() - t1;
  await Bun.sleep(1500);
  await load.stop();

  const samples = rec.samples.filter((s) => s.start >= loadStart);
  const s = summarize(samples);
  figure("1 sigterm", `services ${names.join(",")} × 2 replicas, 8 concurrent clients, mixed reads/writes`);
  figure(
    "1 sigterm",
    `SIGTERM wave 1 (one replica of each): all exited in ${stop1Ms.toFixed(0)} ms, codes ${codes1.join(",")}`,
  );
  figure(
    "1 sigterm",
    `SIGTERM wave 2 (the other originals, after ${replacements.length} replacements started): ` +
      `${stop2Ms.toFixed(0)} ms, codes ${codes2.join(",")}`,
  );
  figure("1 sigterm", fmtSummary(s));
  const failures = samples.filter((x) => x.status !== 200);
  if (failures.length) console.log("failures:", failures.slice(0, 20));

  expect(codes1).toEqual(names.map(() => 0));
  expect(codes2).toEqual(names.map(() => 0));
  expect(s.requests).toBeGreaterThan(500);
  expect(s.failed).toBe(0);
}, 120_000);

test("SIGTERM of the gateway under load: every request it had accepted is answered 200, exit code 0", async () => {
  const stack = fault.stack;
  const load = await mixedLoad(stack, { maxMs: 20_000 });
  const { rec, start: loadStart } = load;
  await Bun.sleep(1000);
  const stopAt = rec.now();
  const stopped = load.stop();
  const code = await stack.gateway.stop();
  const exitMs = rec.now() - stopAt;
  await stopped;

  const samples = rec.samples.filter((s) => s.start >= loadStart);
  // Sent before the signal (5 ms of slack for the socket write).
  const before = samples.filter((s) => s.start < stopAt - 5);
  const answeredAfter = before.filter((s) => s.end > stopAt);
  figure(
    "1 sigterm",
    `gateway SIGTERM under 8 concurrent clients: exit code ${code} after ${exitMs.toFixed(0)} ms; ` +
      `${answeredAfter.length} requests in flight at the signal, all answered: ${fmtSummary(summarize(answeredAfter))}`,
  );
  figure(
    "1 sigterm",
    `requests sent before the signal: ${fmtSummary(summarize(before))}; ` +
      `sent after it (refused: the listener is closed): ${samples.length - before.length}`,
  );

  expect(code).toBe(0);
  expect(before.filter((s) => s.status !== 200)).toEqual([]);
}, 60_000);
