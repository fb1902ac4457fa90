import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { connect } from "nats";
import { startNatsCluster, startRedisCluster, type ClusterProcesses } from "./clusters";
import { ensureStream } from "../../services/kit/streams";

const dataDir = mkdtempSync(join(tmpdir(), "clusters-test-"));
const started: ClusterProcesses<unknown>[] = [];

afterAll(async () => {
  for (const c of started) await c.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("a Redis Cluster of 3 primaries, each with a replica in sync, every slot served", async () => {
  const cluster = await startRedisCluster({ dataDir });
  started.push(cluster);
  expect(cluster.url.split(",")).toHaveLength(6);
  const client = new Redis(cluster.nodes[0]!.url, { maxRetriesPerRequest: 1 });
  try {
    const lines = String(await client.call("CLUSTER", "NODES"))
      .trim()
      .split("\n");
    const primaries = lines.filter((l) => /[ ,]master /.test(l));
    const replicas = lines.filter((l) => /[ ,]slave /.test(l));
    expect([primaries.length, replicas.length]).toEqual([3, 3]);
    const primaryIds = primaries.map((l) => l.split(" ")[0]);
    expect(replicas.map((l) => l.split(" ")[3]).sort()).toEqual([...primaryIds].sort());
    expect(String(await client.call("CLUSTER", "INFO"))).toContain("cluster_slots_assigned:16384");
  } finally {
    client.disconnect();
  }
}, 60_000);

test("a 3-node NATS cluster keeps a JetStream stream on all three nodes", async () => {
  const cluster = await startNatsCluster({ dataDir });
  started.push(cluster);
  const nc = await connect({ servers: cluster.url.split(",") });
  try {
    // As every service creates its streams: a cluster whose nodes are still joining places it once they have.
    await ensureStream(nc, { name: "CLUSTER_TEST", subjects: ["cluster.test"], maxAgeMs: 3_600_000 }, 3);
    const info = await (await nc.jetstreamManager()).streams.info("CLUSTER_TEST");
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.replicas ?? []).toHaveLength(2);
  } finally {
    await nc.close();
  }
}, 60_000);
