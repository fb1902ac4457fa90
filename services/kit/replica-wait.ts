import calculateSlot from "cluster-key-slot";
import { Cluster } from "ioredis";
import { ServiceError } from "../contract/errors";
import type { RedisClient } from "./redis-client";

/**
 * Synchronous replication on demand (REDIS_WAIT_REPLICAS): after a write, `WAIT` for that many replicas
 * of the primary that took it. Redis replicates asynchronously, so a primary that dies right after
 * answering can take acknowledged writes with it; once `WAIT` confirms, the write is on a replica that a
 * failover promotes. `WAIT` goes on the connection of the node that took the write, never in the same
 * pipeline: after a failover a pipelined WAIT would answer for another node.
 */
export interface ReplicaWait {
  replicas: number;
  timeoutMs: number;
}

const policies = new WeakMap<RedisClient, ReplicaWait>();

/** Every write function called through `redis` waits for replicas (connectRedis sets it from config). */
export function setReplicaWait(redis: RedisClient, wait: ReplicaWait): void {
  if (wait.replicas > 0) policies.set(redis, wait);
}

/**
 * Waits until the write just made to `key` is on the asked number of replicas. Fewer within the timeout:
 * the write stands on the primary but is not confirmed, so the answer is 503, as for any write whose
 * outcome is unknown.
 */
export async function confirmReplicas(redis: RedisClient, key: string): Promise<void> {
  const wait = policies.get(redis);
  if (!wait) return;
  const node = redis instanceof Cluster ? primaryOfKey(redis, key) : redis;
  const acked = Number(await node.call("WAIT", wait.replicas, wait.timeoutMs));
  if (acked < wait.replicas) {
    throw new ServiceError(
      "SERVICE_UNAVAILABLE",
      `The write is not yet confirmed by ${wait.replicas} replica(s); retry shortly`,
      { replicas_confirmed: acked, replicas_required: wait.replicas },
    );
  }
}

function primaryOfKey(cluster: Cluster, key: string) {
  const owner = cluster.slots[calculateSlot(key)]?.[0];
  const node = cluster.nodes("master").find((n) => `${n.options.host}:${n.options.port}` === owner);
  if (!node) throw new ServiceError("SERVICE_UNAVAILABLE", "No primary is known for the write's slot; retry shortly");
  return node;
}
