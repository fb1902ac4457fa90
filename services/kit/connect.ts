import { connect, type NatsConnection } from "nats";
import Redis, { Cluster } from "ioredis";
import type { RedisClient } from "./redis-functions";
import { setReplicaWait, type ReplicaWait } from "./replica-wait";
import { errorFields, type Logger } from "./log";
import { coalesceWritesPerTurn } from "./nats-writes";
import { defineTracingChannelSubscribers } from "./redis-tracing";

/** NATS with endless reconnects: a restart of NATS must never take a process down. */
export async function connectNats(url: string, name: string, log: Logger): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(","),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
    pingInterval: 10_000,
    // A stack trace captured on every request (for errors that almost never happen) was ~3% of CPU.
    noAsyncTraces: true,
  });
  if (!coalesceWritesPerTurn(nc)) log.warn("nats writes not coalesced: this nats.js has no flushPending");
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect" || s.type === "reconnect") log.warn(`nats ${s.type}`, { data: String(s.data) });
    }
  })();
  return nc;
}

/** Where a Redis is: one node, or the seed nodes of a Redis Cluster (with their credentials). */
export interface RedisTarget {
  cluster: boolean;
  nodes: { host: string; port: number }[];
  username?: string;
  password?: string;
  tls: boolean;
}

/**
 * `redis://host:port` is one Redis; a comma-separated list (`redis://a:6379,b:6379`, each item with or
 * without its scheme) names seed nodes of a Redis Cluster, and `cluster` forces one for a single seed.
 * Credentials and TLS come from the first item.
 */
export function redisTarget(url: string, cluster = false): RedisTarget {
  const items = url
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const scheme = /^rediss?:\/\//.exec(items[0] ?? "")?.[0] ?? "redis://";
  const parsed = items.map((item) => new URL(/^rediss?:\/\//.test(item) ? item : scheme + item));
  const first = parsed[0]!;
  return {
    cluster: cluster || parsed.length > 1,
    nodes: parsed.map((u) => ({ host: u.hostname, port: Number(u.port || 6379) })),
    username: first.username ? decodeURIComponent(first.username) : undefined,
    password: first.password ? decodeURIComponent(first.password) : undefined,
    tls: first.protocol === "rediss:",
  };
}

/**
 * A failover (a replica promoted after its primary died) takes 3–5 s with `cluster-node-timeout 2000`
 * before writes succeed again, longer when an election has to be repeated; until then commands meet closed
 * connections, CLUSTERDOWN or MOVED. Every retry counts against maxRedirections: 20 × 200 ms bridges a usual
 * failover. Their count does not bound the time they take (a WAIT, a slot-map refresh come on top): the
 * caller's budget does, in serve.ts, which answers 503 ("dependency down") for a request still waiting on a
 * Redis in trouble just before the gateway's timeout would answer 504.
 */
export const CLUSTER_RETRIES = {
  maxRedirections: 20,
  retryDelayOnFailover: 200,
  retryDelayOnClusterDown: 200,
  // TRYAGAIN: a multi-key script while its slot is being moved between nodes.
  retryDelayOnTryAgain: 100,
  // Right after a failover nodes may disagree on a slot's owner for a moment: no ping-pong at full speed.
  retryDelayOnMoved: 50,
} as const;

export interface RedisConnectOptions {
  /** A single URL names a seed node of a Redis Cluster (REDIS_CLUSTER). */
  cluster?: boolean;
  /** Queue commands until connected, for a one-shot tool. */
  offlineQueue?: boolean;
  /** Write functions called through this client wait for replicas (replica-wait.ts). */
  replicaWait?: ReplicaWait;
}

/**
 * ioredis without an offline queue: while Redis is down, commands fail at once (→ 503) instead of
 * piling up and hanging requests; the client reconnects by itself. A cluster target (redisTarget)
 * gets a `Cluster` client, which routes each command to its slot's primary.
 */
export function connectRedis(url: string, log: Logger, name = "redis", opts: RedisConnectOptions = {}): RedisClient {
  defineTracingChannelSubscribers(); // ioredis traces every command on Bun without it (redis-tracing.ts)
  const target = redisTarget(url, opts.cluster);
  const enableOfflineQueue = opts.offlineQueue ?? false;
  const common = { maxRetriesPerRequest: 1, connectTimeout: 2000, connectionName: name };
  const retry = (times: number) => Math.min(50 * times, 1000);
  const redis: RedisClient = target.cluster
    ? new Cluster(target.nodes, {
        ...CLUSTER_RETRIES,
        enableOfflineQueue,
        enableAutoPipelining: true,
        // An auto-pipeline whose commands meet different answers while a slot moves (some ASK, some TRYAGAIN,
        // some served) hands those errors to the callers; a function call sent alone is redirected and
        // retried by the client.
        autoPipeliningIgnoredCommands: ["fcall", "fcall_ro"],
        lazyConnect: true,
        clusterRetryStrategy: retry,
        // A restarted node (same address, same slots) is reconnected to instead of waiting for a MOVED.
        clusterNodeRetryStrategy: retry,
        slotsRefreshTimeout: 2000,
        redisOptions: {
          ...common,
          ...(target.username ? { username: target.username } : {}),
          ...(target.password ? { password: target.password } : {}),
          ...(target.tls ? { tls: {} } : {}),
        },
      })
    : // The URL as given: it may carry more than a cluster's seeds do (a database number, options).
      new Redis(url.trim(), {
        ...common,
        enableOfflineQueue,
        enableAutoPipelining: true,
        retryStrategy: retry,
        lazyConnect: true,
      });
  if (opts.replicaWait) setReplicaWait(redis, opts.replicaWait);
  let down = false;
  const trouble = { at: Number.NEGATIVE_INFINITY };
  troubles.set(redis, trouble);
  redis.on("error", (err: Error) => {
    trouble.at = performance.now();
    if (!down) log.warn("redis error", errorFields(err));
    down = true;
  });
  // A cluster's node errors (a primary killed, refused reconnects) do not reach "error".
  redis.on("node error", () => void (trouble.at = performance.now()));
  redis.on("-node", () => void (trouble.at = performance.now()));
  redis.on("ready", () => {
    if (down) log.info("redis reconnected");
    down = false;
  });
  return redis;
}

const troubles = new WeakMap<RedisClient, { at: number }>();

/**
 * Whether the client has met trouble (an error, a node's error or loss, not ready) since `since`
 * (performance.now()): a request still waiting then is waiting on Redis's recovery, not on its own work.
 */
export function redisTroubledSince(redis: RedisClient, since: number): boolean {
  return redis.status !== "ready" || (troubles.get(redis)?.at ?? Number.NEGATIVE_INFINITY) >= since;
}

/** Waits for the first Redis connection, retrying so a process can start before Redis does. */
export async function redisReady(redis: RedisClient, log: Logger, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (redis.status === "wait" || redis.status === "end") await redis.connect();
      await redis.ping();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      log.warn("waiting for redis", errorFields(err));
      await Bun.sleep(250);
    }
  }
}

/** Messages of the errors that mean a dependency is down (see isDependencyDown). */
const DEPENDENCY_DOWN_MESSAGE = new RegExp(
  [
    "Stream isn't writeable",
    "Connection is closed",
    "ECONNREFUSED",
    "ECONNRESET",
    "ETIMEDOUT",
    "enableOfflineQueue",
    "Connection timeout",
    "LOADING",
    // A Redis Cluster without a primary for the slot, or none reachable, after the client's retries.
    "CLUSTERDOWN",
    "Too many Cluster redirections",
    "None of startup nodes is available",
    "Failed to refresh slots cache",
    "Cluster is ended",
  ].join("|"),
  "i",
);

/**
 * Redis refusing a write because it is at `maxmemory` (policy noeviction): "OOM command not allowed…".
 * Nothing of the write happened (a command or a function is refused before it runs), and reads still work.
 */
export function isStorageFull(err: unknown): boolean {
  return err instanceof Error && /^OOM /.test(err.message ?? "");
}

/**
 * Errors that mean "a dependency is down right now" (Redis disconnected, offline queue disabled,
 * retries exhausted): callers get 503 and may retry, instead of a 500.
 */
export function isDependencyDown(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const name = err.name ?? "";
  const msg = err.message ?? "";
  return name === "MaxRetriesPerRequestError" || DEPENDENCY_DOWN_MESSAGE.test(msg);
}
