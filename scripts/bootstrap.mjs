#!/usr/bin/env node
// Usage: node scripts/bootstrap.mjs <bun-script> [args...]
//
// Gets a fresh machine to the point where the stack can run, then hands over to Bun. Node builtins only: this runs
// before `npm install`. Each step lives in scripts/setup/; steps 2-5 run in background processes while step 1 runs,
// so that on a fresh machine the Redis build overlaps `npm install` instead of following it:
//   1. npm install, when node_modules/.bin/bun is missing or broken (bun.mjs)
//   2. Redis >= 8.0.4: PATH, cache, or a build of Debian's newest upstream source (redis.mjs)
//   3. nats-server of the production minor: PATH, cache, or Debian's package unpacked into the cache (nats.mjs)
//   4. optional speed-ups for the embedding model: OpenBLAS and a SIMD kernel (embedder.mjs, via system.mjs)
//   5. Debian's Chromium, for a test run that includes the browser tests (chromium.mjs, via system.mjs), and
//      Debian's python3-httpx, pytest, pytest-asyncio, venv and mypy for one that includes test/python (python.mjs)
//   6. exec `bun <script> [args]` with REDIS_SERVER_BIN / REDIS_CLI_BIN / NATS_SERVER_BIN (and EMBEDDINGS_KERNEL)
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { homedir, constants as osc } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inBackground, stopAll } from "./setup/background.mjs";
import { ensureBun } from "./setup/bun.mjs";
import { runsBrowserTests } from "./setup/chromium.mjs";
import { runsPythonTests } from "./setup/python.mjs";
import { log, SetupError } from "./setup/shell.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SETUP = join(ROOT, "scripts", "setup");
const CACHE = process.env.MEMORY_SERVICE_CACHE ?? join(homedir(), ".cache", "memory-service");
// Earlier set-ups wrote this deb-src list into the system's apt configuration; the private apt needs none.
const OLD_SOURCE_LIST = "/etc/apt/sources.list.d/memory-service-trixie-src.list";

/** @type {import("node:child_process").ChildProcess | undefined} */
let child;
// During the set-up a signal stops its background steps (each in a process group of its own) and npm; afterwards
// it goes to Bun. A terminal Ctrl-C reaches Bun directly too; forwarding covers `kill <our pid>` from scripts.
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    if (child) return void child.kill(sig);
    stopAll(sig);
    process.exit(128 + osc.signals[sig]);
  });

async function main() {
  const args = process.argv.slice(2);
  if (args.length === 0) throw new SetupError("usage: node scripts/bootstrap.mjs <bun-script> [args...]");
  if (existsSync(OLD_SOURCE_LIST)) rmSync(OLD_SOURCE_LIST, { force: true });
  const browser = runsBrowserTests(args[0], args.slice(1));
  const python = runsPythonTests(args[0], args.slice(1));
  const steps = [
    ensureBun(ROOT),
    inBackground(join(SETUP, "redis.mjs"), "ensureRedis", { cacheDir: CACHE }),
    inBackground(join(SETUP, "nats.mjs"), "ensureNats", { cacheDir: CACHE }),
    inBackground(join(SETUP, "system.mjs"), "ensureSystem", { root: ROOT, cacheDir: CACHE, browser, python }),
  ];
  // Every step runs to its end, so that one start reports every problem, each on its line.
  const settled = await Promise.allSettled(steps);
  const failed = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
  for (const e of failed) report(e);
  if (failed.length > 0) process.exit(1);
  const [bun, redis, nats, system] = settled.map((s) => (s.status === "fulfilled" ? s.value : null));
  if (redis && nats) log(`Redis ${redis.version}, nats-server ${nats.version}`);

  const env = { ...process.env };
  if (system?.kernel) env.EMBEDDINGS_KERNEL = system.kernel;
  if (redis) env.REDIS_SERVER_BIN = redis.server;
  if (redis?.cli) env.REDIS_CLI_BIN = resolve(redis.cli);
  if (nats) env.NATS_SERVER_BIN = nats.bin;

  child = spawn(bun, args, { stdio: "inherit", env });
  child.on("error", (e) => {
    log(`cannot start bun: ${e.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (osc.signals[signal] ?? 0)));
}

function report(e) {
  log(e instanceof SetupError ? e.message : `unexpected error: ${e?.stack ?? e}`);
}

main().catch((e) => {
  stopAll("SIGTERM");
  report(e);
  process.exit(1);
});
