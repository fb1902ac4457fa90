import { expect, test } from "bun:test";
import { exitedProcesses, fileStack } from "./fault-stack";
import { failoverUnderLoad } from "./cluster-failover";

/**
 * Cluster fault 1 with REDIS_WAIT_REPLICAS=1: every write is on a replica before it is acknowledged, so
 * the failover loses none. Two replicas per primary, so the promoted one still has a replica to confirm
 * writes and the API writes again as soon as the promotion is done. The gateway's timeout is shorter than the
 * cluster client's retries (about 4 s), so requests outlast their budget while the replica is promoted: their
 * service must answer them 503 just before it ends (serve.ts), not leave them to the gateway's 504.
 */
const fault = fileStack("cluster-failover-wait", {
  cluster: { redisReplicas: 2 },
  env: { REDIS_WAIT_REPLICAS: "1", NATS_REQUEST_TIMEOUT_MS: "2500" },
});

test("kill -9 of a Redis primary with REDIS_WAIT_REPLICAS=1: 0 acknowledged writes lost, " +
  "200s again within failover + 2 s", async () => {
  const r = await failoverUnderLoad(fault.stack, "cluster-failover wait");
  expect(r.promotedMs).not.toBeNull();
  expect(r.lost).toEqual([]);
  expect(r.statusesAfter.filter((s) => s !== 200 && s !== 503)).toEqual([]);
  expect(r.answeringAgainMs).toBeLessThanOrEqual(r.promotedMs! + 2000);
  expect(exitedProcesses(fault.stack)).toEqual([]);
}, 150_000);
