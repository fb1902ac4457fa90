import { mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack } from "../../scripts/stack/launch";
import { runProcess } from "../process-helpers";

/** What the backup drills share: private stacks on their own data directories, and the commands as npm runs them. */
export const ROOT = resolve(import.meta.dir, "../..");

/**
 * Webhook attempts every second for a minute, the endpoint never disabled meanwhile: a receiver that is down
 * leaves deliveries pending across the backup, and they are still pending when the restored stack takes over.
 */
export const DRILL_ENV = {
  LOG_LEVEL: "warn",
  RATE_LIMIT_PER_MINUTE: "100000",
  SIGNIN_ATTEMPTS_PER_MINUTE: "100000",
  WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
  WEBHOOK_RETRY_SCHEDULE: Array(60).fill("1s").join(","),
  WEBHOOK_DISABLE_AFTER: "1h",
};

export const newDataDir = (name: string) => {
  const root = resolve(process.env.TEST_DATA_ROOT ?? ".data-test");
  return mkdtempSync(join(root, `${name}-`));
};

export const drillStack = (dataDir: string) => startStack({ dataDir, env: DRILL_ENV });

/** Nothing that says where a stack is, but what the test names. */
const STACK_VARIABLES = ["PORT", "DATA_DIR", "REDIS_URL", "NATS_URL", "MEMORY_SERVICE_URL", "MEMORY_SERVICE_API_KEY"];

/** `bun <script> <args>` from the repository's root, as its npm script runs it, with only `env` saying where. */
export function runScript(script: string, args: string[], env: Record<string, string>) {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of STACK_VARIABLES) delete base[name];
  return runProcess([process.execPath, script, ...args], { cwd: ROOT, env: { ...base, ...env } });
}

/**
 * The body of a GET as the API sends it, to compare byte for byte, less the two fields of `meta` that belong to
 * the request rather than to the data (`request_id`, `latency_ms`).
 */
export async function rawGet(baseUrl: string, key: string, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const text = (await res.text()).replace(/"request_id":"[^"]*","latency_ms":[0-9.]+,?/, "");
  return { status: res.status, text };
}
