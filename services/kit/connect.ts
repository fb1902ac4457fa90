import { connect, type NatsConnection } from "nats";
import Redis from "ioredis";
import type { Logger } from "./log";
import { coalesceWritesPerTurn } from "./nats-writes";

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

/**
 * ioredis without an offline queue: while Redis is down, commands fail at once (→ 503) instead of
 * piling up and hanging requests; the client reconnects by itself.
 */
export function connectRedis(url: string, log: Logger, name = "redis"): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(50 * times, 1000),
    connectionName: name,
    lazyConnect: true,
  });
  let down = false;
  redis.on("error", (err) => {
    if (!down) log.warn("redis error", { error: err.message });
    down = true;
  });
  redis.on("ready", () => {
    if (down) log.info("redis reconnected");
    down = false;
  });
  return redis;
}

/** Waits for the first Redis connection, retrying so a process can start before Redis does. */
export async function redisReady(redis: Redis, log: Logger, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (redis.status === "wait" || redis.status === "end") await redis.connect();
      await redis.ping();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      log.warn("waiting for redis", { error: (err as Error).message });
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
