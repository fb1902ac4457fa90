import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type Stack } from "../scripts/stack/launch";
import { connectRedis } from "../services/kit/connect";
import { createLogger } from "../services/kit/log";
import type { RedisClient } from "../services/kit/redis-functions";
import { scanKeys } from "../services/kit/redis-scan";

/**
 * Webhooks in tests: receivers run on loopback, allow-listed by address (so `localhost` stays refused), and
 * time passes by configuration: retries after 0.2, 0.4, 0.8 and 1.6 s, an endpoint disabled after 2 s of
 * failures (so one event that fails every attempt disables it).
 */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
  WEBHOOK_RETRY_SCHEDULE: "200ms,400ms,800ms,1600ms",
  WEBHOOK_DISABLE_AFTER: "2s",
};

/**
 * One private stack (Redis, NATS, every service, the gateway) per test run, started on first use on
 * free ports and stopped by the preload's afterAll. With TEST_CLUSTER=1 it runs on a Redis Cluster and
 * a 3-node NATS cluster (launch.ts `cluster`).
 */
let stackPromise: Promise<Stack> | null = null;

export function testStack(): Promise<Stack> {
  if (!stackPromise) {
    const root = resolve(process.env.TEST_DATA_ROOT ?? ".data-test");
    const dataDir = mkdtempSync(join(root.startsWith("/") ? root : resolve(root), "stack-"));
    stackPromise = startStack({
      dataDir,
      cluster: process.env.TEST_CLUSTER === "1",
      env: {
        LOG_LEVEL: "warn",
        RATE_LIMIT_PER_MINUTE: "100000",
        SIGNIN_ATTEMPTS_PER_MINUTE: "100000",
        ...WEBHOOK_TEST_ENV,
      },
    });
  }
  return stackPromise;
}

export async function stopTestStack(): Promise<void> {
  if (stackPromise) await (await stackPromise).stop();
  stackPromise = null;
}

/** A client of the stack's Redis (a Cluster client when it runs on one), for tests that look inside. */
export const stackRedis = (stack: Stack): RedisClient =>
  connectRedis(stack.redisUrl, createLogger({ service: "test" }, "error"), "test", { offlineQueue: true });

/** Every key matching `pattern`, on every primary of a cluster. */
export async function keysMatching(redis: RedisClient, pattern: string): Promise<string[]> {
  const out: string[] = [];
  for await (const keys of scanKeys(redis, pattern)) out.push(...keys);
  return out;
}
