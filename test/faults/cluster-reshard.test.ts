import { expect, test } from "bun:test";
import { exitedProcesses, fileStack } from "./fault-stack";
import { mixedLoad } from "./fault-load";
import { figure, fmtSummary, summarize } from "./fault-figures";
import { clusterNodes, moveSlot, shardOf } from "./cluster-topology";

/**
 * Cluster fault 2: the slot of a busy tenant (its hash tag's) moves to another primary while 8 clients
 * write and read it. Clients see no error at all: single-key commands follow ASK/MOVED, and a function
 * whose keys are split between the two nodes meanwhile gets TRYAGAIN, which the client retries.
 */
const fault = fileStack("cluster-reshard", { cluster: true });

test("a hot tenant's slot resharded to another primary under load: 0 client-visible errors, " +
  "nothing lost", async () => {
  const stack = fault.stack;
  const load = await mixedLoad(stack, { maxMs: 90_000 });
  await Bun.sleep(3000);
  const shard = await shardOf(stack, load.client.tenant);
  const target = shard.others[0]!;
  const started = load.rec.now();
  // 20 keys per batch, 20 ms apart: the slot stays split for seconds while the clients go on, but not for as long
  // as a request may wait (5 s): a call whose keys are split is retried until the move ends.
  const moved = await moveSlot(stack, shard.slot, shard.node, target, { batch: 20, pauseMs: 20 });
  const ended = load.rec.now();
  await Bun.sleep(3000);
  await load.stop();

  const owner = (await clusterNodes(stack)).find(
    (n) => n.primary && n.ranges.some(([a, b]) => a <= shard.slot && shard.slot <= b),
  );
  const lost: string[] = [];
  for (const id of load.memoryIds) {
    const r = await load.client.call("verify", "GET", `/v1/memories/${id}`);
    if (r.status !== 200) lost.push(id);
  }
  const list = await load.client.call("verify", "GET", "/v1/memories?limit=1");
  const during = load.rec.samples.filter((s) => s.end >= started && s.start <= ended);
  const failed = load.rec.samples.filter((s) => s.op !== "verify" && s.status !== 200);
  figure(
    "cluster-reshard",
    `slot ${shard.slot}: ${moved} keys moved from :${shard.node.port} to :${target.port} ` +
      `in ${(ended - started).toFixed(0)} ms`,
  );
  figure("cluster-reshard", `requests during the move: ${fmtSummary(summarize(during))}`);
  figure("cluster-reshard", `whole run: ${fmtSummary(summarize(load.rec.samples.filter((s) => s.op !== "verify")))}`);
  expect(moved).toBeGreaterThan(0);
  expect(owner?.id).toBe(target.id);
  expect(failed).toEqual([]);
  expect(lost).toEqual([]);
  expect(list.body.meta.total).toBeGreaterThanOrEqual(load.memoryIds.length);
  expect(exitedProcesses(stack)).toEqual([]);
}, 150_000);
