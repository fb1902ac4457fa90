import { expect, test } from "bun:test";
import { SERVICE_NAMES, type ServiceName } from "../../scripts/stack/launch";
import { fileStack, waitReplicas } from "./fault-stack";
import { mixedLoad } from "./fault-load";
import { figure, fmtSummary, summarize } from "./fault-figures";

/**
 * Fault 2: kill -9 of one replica of each service under load. Requests move to the surviving
 * replica. A request the dead process had already taken gets no reply: the bus notices the missing
 * heartbeats within a second, retries it once if the operation is idempotent (reads), and answers
 * 503 otherwise (a write whose outcome is unknown is never replayed). So: errors only 503, none after
 * 2 s, no hang.
 */
const names = SERVICE_NAMES as readonly ServiceName[];

const fault = fileStack("kill9", { replicas: Object.fromEntries(names.map((n) => [n, 2])) });

test("kill -9 of a replica of each service under load: only 503s, all within 2 s of the kill, no hang", async () => {
  const stack = fault.stack;
  const load = await mixedLoad(stack, { beforeStart: () => waitReplicas(stack.natsUrl, names, 2) });
  const { rec, start: loadStart } = load;
  await Bun.sleep(2000);
  const killAt = rec.now();
  await Promise.all(names.map((n) => stack.services[n][0]!.kill9()));
  await Bun.sleep(4000);
  await load.stop();

  const samples = rec.samples.filter((s) => s.start >= loadStart);
  const errors = samples.filter((s) => s.status !== 200);
  const lastErrorAfterKill = errors.length ? Math.max(...errors.map((e) => e.end)) - killAt : 0;
  const after = samples.filter((s) => s.start >= killAt);
  figure("2 kill9", `kill -9 of one of 2 replicas of ${names.join(",")} under 8 concurrent clients`);
  figure("2 kill9", `whole run: ${fmtSummary(summarize(samples))}`);
  figure("2 kill9", `after the kill: ${fmtSummary(summarize(after))}`);
  figure(
    "2 kill9",
    `errors: ${errors.length} (${errors.map((e) => `${e.op} ${e.status}`).join(", ") || "none"}), ` +
      `last one answered ${lastErrorAfterKill.toFixed(0)} ms after the kill`,
  );

  // The gateway's metrics show the reads it sent again (outcome "lost" = the replica died mid-request).
  const metrics = await (await fetch(stack.metricsUrl)).text();
  const lost = [
    ...metrics.matchAll(/^nats_request_duration_seconds_count\{subject="([^"]+)",outcome="lost"\} (\d+)/gm),
  ].map((m) => `${m[1]} ${m[2]}`);
  figure(
    "2 kill9",
    "gateway calls whose replica died mid-request (reads among them were sent again and succeeded): " +
      `${lost.join(", ") || "none"}`,
  );

  expect(samples.length).toBeGreaterThan(500);
  expect(errors.filter((e) => e.status !== 503)).toEqual([]);
  expect(lastErrorAfterKill).toBeLessThan(2000);
  // Nothing waited for the request timeout (5 s → 504): a lost request is noticed within LOST_AFTER_MS.
  expect(summarize(after).max).toBeLessThan(5000);
  // The survivors carry on: requests after the switch all succeed.
  expect(after.filter((s) => s.start > killAt + 2000 && s.status !== 200)).toEqual([]);
}, 120_000);
