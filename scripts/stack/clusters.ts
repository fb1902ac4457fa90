// A local Redis Cluster and a local NATS cluster, for the cluster test stack: every node a supervised
// child process (infra.ts) on loopback free ports, with its own data dir.
import { rmSync } from "node:fs";
import { join } from "node:path";
import Redis from "ioredis";
import { connect } from "nats";
import { findBin, freePort, startNats, startRedis, type NatsProcess, type RedisProcess } from "./infra";

const HOST = "127.0.0.1";
const FORMED_TIMEOUT_MS = 30_000;

export interface ClusterProcesses<P> {
  /** Every node, comma-separated: REDIS_URL / NATS_URL of the processes that use the cluster. */
  readonly url: string;
  readonly nodes: P[];
  stop(): Promise<void>;
}

/**
 * A Redis Cluster of `primaries` primaries with `replicas` replicas each (redis-cli --cluster create),
 * resolved once every node sees the cluster ok and every replica is in sync with its primary.
 */
export async function startRedisCluster(opts: {
  dataDir: string;
  primaries?: number;
  replicas?: number;
}): Promise<ClusterProcesses<RedisProcess>> {
  const primaries = opts.primaries ?? 3;
  const replicas = opts.replicas ?? 1;
  const count = primaries * (1 + replicas);
  const dirs = () => Array.from({ length: count }, (_, i) => join(opts.dataDir, `redis-${i}`));
  const startNodes = () =>
    allStarted(
      Array.from({ length: count }, async (_, i) => {
        const busPort = await freePort(); // the default (port + 10000) may be past 65535
        return startRedis({
          dataDir: join(opts.dataDir, `redis-${i}`),
          args: [
            ...["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"],
            ...["--cluster-port", String(busPort), "--cluster-node-timeout", "2000"],
            // A replica's first sync starts at once instead of after the default 5 s wait for more replicas.
            ...["--repl-diskless-sync-delay", "0"],
          ],
        });
      }),
    );
  const started = await withFreshPorts(startNodes, dirs);
  const stop = () => stopAll(started);
  try {
    const cli = findBin("REDIS_CLI_BIN", ["redis-cli"]);
    const addrs = started.map((n) => `${HOST}:${n.port}`);
    const create = Bun.spawnSync(
      [cli, "--cluster", "create", ...addrs, "--cluster-replicas", String(replicas), "--cluster-yes"],
      { stdout: "pipe", stderr: "pipe" },
    );
    if (create.exitCode !== 0) {
      throw new Error(`redis-cli --cluster create failed:\n${create.stdout.toString()}${create.stderr.toString()}`);
    }
    await Promise.all(started.map((n) => untilFormed(n.port, primaries * replicas)));
    return { url: started.map((n) => n.url).join(","), nodes: started, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The node sees every slot served (cluster_state:ok) and every replica as one (gossip has spread), and if it
 * is a replica itself, its link to the primary is up.
 */
async function untilFormed(port: number, replicaCount: number): Promise<void> {
  const client = new Redis({ host: HOST, port, lazyConnect: true, maxRetriesPerRequest: 1 });
  const deadline = Date.now() + FORMED_TIMEOUT_MS;
  try {
    for (;;) {
      const info = String(await client.call("CLUSTER", "INFO"));
      const seen = String(await client.call("CLUSTER", "NODES")).match(/ (myself,)?slave /g)?.length ?? 0;
      const replication = await client.info("replication");
      const synced = /role:master/.test(replication) || /master_link_status:up/.test(replication);
      if (/cluster_state:ok/.test(info) && seen === replicaCount && synced) return;
      if (Date.now() > deadline) throw new Error(`redis cluster node ${port} not formed:\n${info}\n${replication}`);
      await Bun.sleep(100);
    }
  } finally {
    client.disconnect();
  }
}

/**
 * A NATS cluster of `size` nodes, each with its own JetStream store, routes to all the others. They start
 * together: a node's JetStream is ready only once a quorum elected a meta leader.
 */
export async function startNatsCluster(opts: {
  dataDir: string;
  size?: number;
}): Promise<ClusterProcesses<NatsProcess>> {
  const size = opts.size ?? 3;
  return withFreshPorts(
    () => startNatsNodes(opts.dataDir, size),
    () => Array.from({ length: size }, (_, i) => join(opts.dataDir, `nats-${i}`)),
  );
}

async function startNatsNodes(dataDir: string, size: number): Promise<ClusterProcesses<NatsProcess>> {
  const clusterPorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = clusterPorts.map((p) => `nats-route://${HOST}:${p}`).join(",");
  const nodes = await allStarted(
    clusterPorts.map((clusterPort, i) =>
      startNats({
        dataDir: join(dataDir, `nats-${i}`),
        args: ["--cluster_name", "memory-service", "--cluster", `nats://${HOST}:${clusterPort}`, "--routes", routes],
      }),
    ),
  );
  const url = nodes.map((n) => n.url).join(",");
  if (!(await placesReplicatedStreams(url, size))) {
    await stopAll(nodes);
    throw new Error(NOT_PLACING);
  }
  return { url, nodes, stop: () => stopAll(nodes) };
}

const NOT_PLACING = "NATS cluster cannot place a stream on all its nodes";
/** How long a fresh NATS cluster gets to place a stream on every node. */
const PLACING_TIMEOUT_MS = 15_000;

/**
 * Whether the cluster places a stream with a replica on every node (a probe stream, deleted again). Nodes that all
 * serve JetStream may still answer "no suitable peers for placement" for good, now and then, when they start
 * together on this machine: such a cluster is started again rather than left to fail every service's start.
 */
async function placesReplicatedStreams(url: string, size: number): Promise<boolean> {
  const nc = await connect({ servers: url.split(","), timeout: 2000 });
  try {
    const jsm = await nc.jetstreamManager();
    const deadline = Date.now() + PLACING_TIMEOUT_MS;
    for (;;) {
      try {
        await jsm.streams.add({ name: "PLACEMENT_PROBE", subjects: ["placement.probe"], num_replicas: size });
        await jsm.streams.delete("PLACEMENT_PROBE");
        return true;
      } catch {
        if (Date.now() > deadline) return false;
        await Bun.sleep(250);
      }
    }
  } finally {
    await nc.close();
  }
}

/**
 * Ports are picked free, then bound by the nodes a moment later, so another process (or a node's own client port)
 * can take one in between; and a NATS cluster may form unable to place streams (placesReplicatedStreams). Either
 * way the cluster starts again from scratch on fresh ports, twice at most.
 */
async function withFreshPorts<C>(start: () => Promise<C>, dirs: () => string[]): Promise<C> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      const message = (err as Error).message ?? "";
      if (attempt >= 3 || !(/address already in use/i.test(message) || message === NOT_PLACING)) throw err;
      for (const dir of dirs()) rmSync(dir, { recursive: true, force: true });
    }
  }
}

const stopAll = (nodes: { stop(): Promise<void> }[]) => Promise.all(nodes.map((n) => n.stop())).then(() => undefined);

/** Every node, or none: when one fails to start, the others are stopped before the error goes on. */
async function allStarted<P extends { stop(): Promise<void> }>(starting: Promise<P>[]): Promise<P[]> {
  const results = await Promise.allSettled(starting);
  const failed = results.find((r) => r.status === "rejected");
  const up = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  if (failed) {
    await stopAll(up);
    throw failed.reason;
  }
  return up;
}
