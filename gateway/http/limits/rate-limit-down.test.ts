import { afterAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import { freePort } from "../../../scripts/stack/infra";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { createRateLimiter } from "./rate-limit";

const db = privateRedis("rate-limit-down");
const clients: Redis[] = [];
afterAll(() => {
  for (const c of clients) c.disconnect();
});

/** A client of a port nothing listens on: every call fails fast, as when Redis is down. */
async function unreachable(): Promise<Redis> {
  const redis = new Redis({
    port: await freePort(),
    host: "127.0.0.1",
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
    retryStrategy: () => 100,
  });
  redis.on("error", () => undefined);
  clients.push(redis);
  return redis;
}

const limits = { perMinute: 10, perDay: 0 };
const allowedOf = async (limiter: ReturnType<typeof createRateLimiter>, key: string, n: number) => {
  const results = await Promise.all(Array.from({ length: n }, () => limiter.check(key, limits)));
  return results.filter((r) => r.allowed).length;
};

describe("the limiter when Redis cannot decide", () => {
  test("without a fallback it fails closed with SERVICE_UNAVAILABLE, fast", async () => {
    const limiter = createRateLimiter(await unreachable());
    const started = performance.now();
    await expect(limiter.check("k", limits)).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("Redis down: each replica decides locally at limit / replicas, then fails closed after maxMs", async () => {
    const limiter = createRateLimiter(await unreachable(), { fallback: { maxMs: 1500, replicas: 2 } });
    expect(await allowedOf(limiter, "k", 8)).toBe(5);
    await Bun.sleep(1600);
    await expect(limiter.check("k", limits)).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });

  test("Redis full (maxmemory, noeviction): local decisions, then exact again once it accepts writes", async () => {
    const redis = await db.connect();
    const limiter = createRateLimiter(redis, { fallback: { maxMs: 60_000, replicas: 1 }, probeEveryMs: 50 });
    expect(await allowedOf(limiter, "warm", 1)).toBe(1); // the library is loaded before Redis fills up
    const used = Number(/used_memory:(\d+)/.exec(await redis.info("memory"))![1]);
    await redis.config("SET", "maxmemory-policy", "noeviction");
    await redis.config("SET", "maxmemory", String(used - 1024));
    try {
      await expect(redis.set("probe", "x")).rejects.toThrow(/^OOM /);
      expect(await allowedOf(limiter, "full", 15)).toBe(10);
    } finally {
      await redis.config("SET", "maxmemory", "0");
    }
    await Bun.sleep(60);
    // Exact again: Redis counts from here (the local count is forgotten), and its window refuses the 11th.
    expect(await allowedOf(limiter, "full", 11)).toBe(10);
    expect(Number(await redis.exists("rl:{full}"))).toBeGreaterThanOrEqual(0);
  });

  test("Redis slow (writes paused past the timeout): local decisions without waiting on it", async () => {
    const redis = await db.connect();
    const admin = await db.connect();
    const limiter = createRateLimiter(redis, {
      fallback: { maxMs: 60_000, replicas: 1 },
      timeoutMs: 100,
      probeEveryMs: 10_000,
    });
    expect(await allowedOf(limiter, "warm2", 1)).toBe(1);
    await admin.call("CLIENT", "PAUSE", "1500", "WRITE");
    try {
      const started = performance.now();
      expect(await allowedOf(limiter, "slow", 12)).toBe(10);
      // One call waited for the timeout; the rest were decided at once.
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await admin.call("CLIENT", "UNPAUSE");
    }
  });
});
