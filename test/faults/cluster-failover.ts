import type { Stack } from "../../scripts/stack/launch";
import { mixedLoad } from "./fault-load";
import { waitFor } from "./fault-stack";
import { figure, fmtSummary, summarize } from "./fault-figures";
import { isPrimary, shardOf } from "./cluster-topology";

/**
 * kill -9 of the Redis primary that serves a tenant, under that tenant's mixed load (creates, updates,
 * tag attaches, reads) from 8 clients: how long until its replica is promoted, how long until every
 * request answers 200 again, what answered meanwhile, and how many acknowledged creates are gone.
 */
export async function failoverUnderLoad(stack: Stack, tag: string) {
  const load = await mixedLoad(stack, { maxMs: 90_000 });
  await Bun.sleep(3000);
  const shard = await shardOf(stack, load.client.tenant);
  const acknowledgedBefore = load.memoryIds.length;
  const killedAt = load.rec.now();
  await shard.primary.kill9();
  const promotedMs = await waitFor(
    async () => (await Promise.all(shard.replicas.map(isPrimary))).some(Boolean),
    30_000,
  );
  // Load goes on well past the promotion, so a slow recovery shows as late failures.
  await Bun.sleep(6000);
  await load.stop();

  const before = load.rec.samples.filter((s) => s.end < killedAt);
  const after = load.rec.samples.filter((s) => s.end >= killedAt);
  const lastFailure = Math.max(killedAt, ...after.filter((s) => s.status !== 200).map((s) => s.end));
  const answeringAgainMs = lastFailure - killedAt;

  const ids = [...load.memoryIds];
  const lost: string[] = [];
  for (let i = 0; i < ids.length; i += 16) {
    await Promise.all(
      ids.slice(i, i + 16).map(async (id) => {
        const r = await load.client.call("verify", "GET", `/v1/memories/${id}`);
        if (r.status !== 200) lost.push(id);
      }),
    );
  }
  const statusesAfter = [...new Set(after.map((s) => s.status))].sort();
  figure(tag, `before the kill: ${fmtSummary(summarize(before))}`);
  figure(
    tag,
    `kill -9 of the tenant's primary (slot ${shard.slot}) after ${acknowledgedBefore} acknowledged creates; ` +
      `replica promoted after ${promotedMs?.toFixed(0)} ms; every request 200 again after ` +
      `${answeringAgainMs.toFixed(0)} ms`,
  );
  figure(tag, `after the kill: ${fmtSummary(summarize(after))}`);
  figure(tag, `acknowledged creates lost: ${lost.length} of ${ids.length}`);
  return {
    promotedMs,
    answeringAgainMs,
    statusesAfter,
    lost,
    acknowledged: ids.length,
    createRps: summarize(before.filter((s) => s.op === "memories.create")).rps,
  };
}
