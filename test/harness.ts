import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type Stack } from "../scripts/stack/launch";

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
      env: { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "100000", SIGNIN_ATTEMPTS_PER_MINUTE: "100000" },
    });
  }
  return stackPromise;
}

export async function stopTestStack(): Promise<void> {
  if (stackPromise) await (await stackPromise).stop();
  stackPromise = null;
}
