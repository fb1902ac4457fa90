import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type Stack } from "../scripts/stack/launch";

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
 * free ports and stopped by the preload's afterAll.
 */
let stackPromise: Promise<Stack> | null = null;

export function testStack(): Promise<Stack> {
  if (!stackPromise) {
    const root = resolve(process.env.TEST_DATA_ROOT ?? ".data-test");
    const dataDir = mkdtempSync(join(root.startsWith("/") ? root : resolve(root), "stack-"));
    stackPromise = startStack({
      dataDir,
      env: { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "100000", ...WEBHOOK_TEST_ENV },
    });
  }
  return stackPromise;
}

export async function stopTestStack(): Promise<void> {
  if (stackPromise) await (await stackPromise).stop();
  stackPromise = null;
}
