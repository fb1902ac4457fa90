import { expect, test } from "bun:test";
import { apiClient } from "../api";
import { consumersBacklog, exitedProcesses, fileStack, waitFor } from "./fault-stack";
import { mixedLoad } from "./fault-load";
import { figure, fmtSummary, summarize } from "./fault-figures";

/**
 * Fault 4: NATS goes down for 2 s under load, then restarts. Meanwhile every request answers 503
 * at once (the bus fails fast while the link is down and fails what was in flight at the
 * disconnect); services and gateway reconnect by themselves; /readyz is 200 again within 5 s of
 * NATS being back; JetStream consumers (usage aggregation, and the search indexer when present)
 * carry on from their durable position.
 */

const fault = fileStack("nats", { replicas: { memories: 2 } });

test("NATS restart under load: fast 503s meanwhile, ready within 5 s of NATS, consumers resume", async () => {
  const stack = fault.stack;
  const load = await mixedLoad(stack);
  const { rec, client, start: loadStart } = load;
  await Bun.sleep(2000);
  const downAt = rec.now();
  // Down for 2 s (a plain restart is over in ~100 ms, too short to see what clients get meanwhile).
  await stack.nats!.stop();
  await Bun.sleep(1000);
  const readyzStarted = performance.now();
  const readyzDown = (await fetch(`${stack.baseUrl}/readyz`)).status;
  const readyzDownMs = performance.now() - readyzStarted;
  await Bun.sleep(1000);
  await stack.nats!.restart(); // start on the same port and store, wait until it serves JetStream
  const backAt = rec.now();
  const readyMs = await waitFor(
    async () => (await fetch(`${stack.baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) })).status === 200,
    10_000,
    25,
  );
  const readyAt = backAt + (readyMs ?? 10_000);
  await Bun.sleep(3000);
  await load.stop();

  // JetStream consumers after the restart: a fresh key's requests must reach its usage report (gateway
  // → USAGE stream → keys' durable consumer → Redis), and every durable consumer must drain its backlog.
  const admin = apiClient(stack.baseUrl, client.key);
  const minted = await admin.post("/v1/keys", { name: "after-restart", scopes: ["memories:read"] });
  expect(minted.status).toBe(200);
  const fresh = apiClient(stack.baseUrl, minted.body.data.key);
  for (let i = 0; i < 20; i++) expect((await fresh.get("/v1/memories?limit=1")).status).toBe(200);
  let usageSeen = -1;
  const usageMs = await waitFor(
    async () => {
      const r = await admin.get(`/v1/usage?key_id=${minted.body.data.id}`);
      usageSeen = r.body?.data?.totals?.requests ?? -1;
      return usageSeen === 20;
    },
    15_000,
    200,
  );
  // Every durable consumer pulls again: all that was published (during the test and after the restart)
  // gets delivered. Messages delivered just as NATS went down may have lost their ack (nats.js drops
  // what is published while disconnected): they stay ack-pending until ack_wait redelivers them.
  let backlog: Awaited<ReturnType<typeof consumersBacklog>> = [];
  const drainedMs = await waitFor(
    async () => {
      backlog = await consumersBacklog(stack.natsUrl);
      return backlog.length > 0 && backlog.every((c) => c.pending === 0);
    },
    20_000,
    200,
  );
  const samples = rec.samples.filter((s) => s.start >= loadStart && s.op !== "seed");
  const outage = samples.filter((s) => s.end >= downAt && s.start <= readyAt);
  const errors = samples.filter((s) => s.status !== 200);
  // Requests in flight as NATS went down are answered once the gateway notices (the socket closes):
  // counted from the outage. Requests sent after that must each be answered in under 100 ms.
  const answeredIn = (s: { start: number; end: number }) => s.end - Math.max(s.start, downAt);
  const noticedAt = Math.min(...errors.map((s) => s.end));
  const sentDuring = errors.filter((s) => s.start >= noticedAt);
  const slowErrors = sentDuring.filter((s) => s.end - s.start >= 100);
  figure(
    "4 nats",
    "NATS stopped (SIGTERM) under 8 concurrent clients, started again 2 s later: " +
      `back (JetStream ready) after ${(backAt - downAt).toFixed(0)} ms; ` +
      `/readyz meanwhile ${readyzDown} in ${readyzDownMs.toFixed(0)} ms`,
  );
  figure("4 nats", `/readyz 200 again ${readyMs?.toFixed(0)} ms after NATS was back`);
  figure("4 nats", `requests overlapping the outage: ${fmtSummary(summarize(outage))}`);
  const inFlightMs = Math.max(0, ...errors.filter((s) => s.start < noticedAt).map(answeredIn)).toFixed(0);
  figure(
    "4 nats",
    `errors: ${errors.length}, statuses ${JSON.stringify(summarize(errors).byStatus)}; ` +
      `in flight at the outage: answered within ${inFlightMs} ms of it; ` +
      `sent during it: ${fmtSummary(summarize(sentDuring))}`,
  );
  figure("4 nats", `whole run: ${fmtSummary(summarize(samples))}`);
  figure(
    "4 nats",
    `usage of a key minted after the restart: ${usageSeen}/20 requests reported after ${usageMs?.toFixed(0)} ms; ` +
      "consumers (undelivered / awaiting ack redelivery) " +
      `${backlog.map((c) => `${c.name} ${c.pending}/${c.ackPending}`).join(", ")}, ` +
      `all delivered after ${drainedMs?.toFixed(0)} ms`,
  );

  expect(exitedProcesses(stack)).toEqual([]); // reconnected by themselves, nobody crashed
  expect(readyzDown).toBe(503);
  expect(readyMs).not.toBeNull();
  expect(readyMs!).toBeLessThan(5000);
  expect(errors.filter((s) => s.status !== 503)).toEqual([]);
  expect(slowErrors).toEqual([]);
  expect(Math.max(...errors.map(answeredIn))).toBeLessThan(1000);
  expect(Math.max(...samples.map(answeredIn))).toBeLessThan(3000); // nothing waits for a timeout
  expect(samples.filter((s) => s.start > readyAt + 500 && s.status !== 200)).toEqual([]);
  expect(usageSeen).toBe(20);
  expect(drainedMs).not.toBeNull();
}, 120_000);
