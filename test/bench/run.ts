import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { startStack, type Stack } from "../../scripts/stack/launch";
import { freePort, withDeathSignal } from "../../scripts/stack/infra";
import { newTenant } from "../api";
import { fmt, medianOf } from "./load";
import { benchSections } from "./sections";

/**
 * `npm run bench`: starts a private stack, then measures each section against a bare Elysia
 * baseline from the same run. Figures are medians of RUNS runs (the machine is noisy).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.argv.slice(2);

const root = resolve(".data-bench");
rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });
const dataDir = mkdtempSync(join(root, "stack-"));
console.log(`bench: ${RUNS} runs × ${DURATION_S}s at ${CONNECTIONS} connections (medians)`);

const helloPort = await freePort();
// It dies with the bench, also when the stack below fails to start.
const hello = Bun.spawn(withDeathSignal([process.execPath, resolve(import.meta.dir, "hello.ts")]), {
  env: { ...process.env, PORT: String(helloPort) },
  stdout: "ignore",
  stderr: "inherit",
});
// The webhooks section's receiver listens on loopback.
const stack: Stack = await startStack({ dataDir, env: { LOG_LEVEL: "warn", WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" } });
await Bun.sleep(300);

try {
  const baseline = await medianOf(RUNS, {
    url: `http://127.0.0.1:${helloPort}/hello`,
    connections: CONNECTIONS,
    durationS: DURATION_S,
  });
  console.log(`\n(a) bare Elysia hello-world          ${fmt(baseline)}`);
  const tenant = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], rate_limit: 10_000_000 });
  const ctx = { stack, tenant, baseline, runs: RUNS, durationS: DURATION_S, connections: CONNECTIONS };
  for (const section of benchSections) {
    if (only.length && !only.includes(section.name)) continue;
    console.log(`\n## ${section.name}`);
    await section.run(ctx);
  }
} finally {
  hello.kill();
  await stack.stop();
}
