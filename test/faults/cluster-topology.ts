import Redis from "ioredis";
import calculateSlot from "cluster-key-slot";
import type { Stack } from "../../scripts/stack/launch";
import type { RedisProcess } from "../../scripts/stack/infra";
import { hashTag } from "../../services/kit/space";

/** Who serves what in a cluster stack's Redis Cluster, read from the nodes themselves (CLUSTER NODES). */

export interface ClusterNode {
  id: string;
  port: number;
  primary: boolean;
  /** The primary's node id, for a replica. */
  primaryId: string | null;
  /** Slot ranges [from, to] a primary serves. */
  ranges: [number, number][];
}

const direct = (port: number) =>
  new Redis({ host: "127.0.0.1", port, lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500 });

/** The cluster as one reachable node sees it. */
export async function clusterNodes(stack: Stack): Promise<ClusterNode[]> {
  for (const node of stack.clusters!.redis.nodes) {
    const redis = direct(node.port);
    try {
      const text = String(await redis.call("CLUSTER", "NODES"));
      return text
        .trim()
        .split("\n")
        .map((line) => {
          const [id, addr, flags, primaryId, , , , , ...slots] = line.split(" ");
          return {
            id: id!,
            port: Number(addr!.split("@")[0]!.split(":")[1]),
            primary: flags!.includes("master") && !flags!.includes("fail"),
            primaryId: primaryId === "-" ? null : primaryId!,
            ranges: slots
              .filter((s) => !s.startsWith("["))
              .map((s) => s.split("-").map(Number))
              .map(([from, to]) => [from!, to ?? from!] as [number, number]),
          };
        });
    } catch {
      // that node is down: ask the next one
    } finally {
      redis.disconnect();
    }
  }
  throw new Error("no Redis Cluster node answers");
}

/** The primary serving a tenant environment's hash tag, and its replicas, as processes of the stack. */
export async function shardOf(stack: Stack, tenant: string, env: "live" | "test" = "live") {
  const s = calculateSlot(hashTag({ tenant, env }));
  const nodes = await clusterNodes(stack);
  const primary = nodes.find((n) => n.primary && n.ranges.some(([a, b]) => s >= a && s <= b));
  if (!primary) throw new Error(`no primary serves slot ${s}`);
  const processOf = (port: number): RedisProcess => stack.clusters!.redis.nodes.find((n) => n.port === port)!;
  return {
    slot: s,
    node: primary,
    others: nodes.filter((n) => n.primary && n.id !== primary.id),
    primary: processOf(primary.port),
    primaryId: primary.id,
    replicas: nodes.filter((n) => n.primaryId === primary.id).map((n) => processOf(n.port)),
  };
}

/** `role:master` on that node now (a replica promoted by a failover). */
export async function isPrimary(node: RedisProcess): Promise<boolean> {
  const redis = direct(node.port);
  try {
    return /role:master/.test(await redis.info("replication"));
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * Moves one slot from its primary to another while clients use it, the way `redis-cli --cluster reshard`
 * does: the target imports, the source migrates, keys go over in batches (MIGRATE), then every primary
 * learns the new owner, the target first. Small batches with pauses keep the slot split between the two
 * nodes for longer, as a big tenant's move would. Resolves how many keys moved.
 */
export async function moveSlot(
  stack: Stack,
  s: number,
  from: ClusterNode,
  to: ClusterNode,
  opts: { batch: number; pauseMs: number } = { batch: 100, pauseMs: 0 },
): Promise<number> {
  const nodes = (await clusterNodes(stack)).filter((n) => n.primary);
  const clients = new Map(nodes.map((n) => [n.id, direct(n.port)]));
  const source = clients.get(from.id)!;
  const target = clients.get(to.id)!;
  try {
    await target.call("CLUSTER", "SETSLOT", s, "IMPORTING", from.id);
    await source.call("CLUSTER", "SETSLOT", s, "MIGRATING", to.id);
    let moved = 0;
    for (;;) {
      const keys = (await source.call("CLUSTER", "GETKEYSINSLOT", s, opts.batch)) as string[];
      if (keys.length === 0) break;
      await source.call("MIGRATE", "127.0.0.1", to.port, "", 0, 5000, "KEYS", ...keys);
      moved += keys.length;
      await Bun.sleep(opts.pauseMs);
    }
    await target.call("CLUSTER", "SETSLOT", s, "NODE", to.id);
    await source.call("CLUSTER", "SETSLOT", s, "NODE", to.id);
    for (const [id, client] of clients)
      if (id !== from.id && id !== to.id) await client.call("CLUSTER", "SETSLOT", s, "NODE", to.id);
    return moved;
  } finally {
    for (const client of clients.values()) client.disconnect();
  }
}
