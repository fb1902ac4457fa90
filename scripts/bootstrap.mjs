#!/usr/bin/env node
// Usage: node scripts/bootstrap.mjs <bun-script> [args...]
//
// Gets a fresh machine to the point where the stack can run, then hands over to Bun. Node builtins only: this runs
// before `npm install`. Each step lives in scripts/setup/:
//   1. npm install, when node_modules/.bin/bun is missing or broken (bun.mjs)
//   2. Redis >= 8.0.4: PATH, cache, or a build of Debian's newest upstream source (redis.mjs)
//   3. nats-server of the production minor: PATH, cache, or Debian's package unpacked into the cache (nats.mjs)
//   4. optional speed-ups for the embedding model: OpenBLAS and an AVX-512 kernel (embedder.mjs)
//   5. Debian's Chromium, for a test run that includes the browser tests (chromium.mjs)
//   6. Debian's python3-httpx, pytest, pytest-asyncio and mypy, for a run that includes test/python (python.mjs)
//   7. exec `bun <script> [args]` with REDIS_SERVER_BIN / REDIS_CLI_BIN / NATS_SERVER_BIN (and EMBEDDINGS_KERNEL)
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { homedir, constants as osc } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBun } from "./setup/bun.mjs";
import { ensureChromium, runsBrowserTests } from "./setup/chromium.mjs";
import { ensureDenseKernel, ensureOpenBlas } from "./setup/embedder.mjs";
import { ensureNats } from "./setup/nats.mjs";
import { ensurePythonPackages, runsPythonTests } from "./setup/python.mjs";
import { ensureRedis } from "./setup/redis.mjs";
import { log, SetupError } from "./setup/shell.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = process.env.MEMORY_SERVICE_CACHE ?? join(homedir(), ".cache", "memory-service");
// Earlier set-ups wrote this deb-src list into the system's apt configuration; the private apt needs none.
const OLD_SOURCE_LIST = "/etc/apt/sources.list.d/memory-service-trixie-src.list";

function main() {
  const args = process.argv.slice(2);
  if (args.length === 0) throw new SetupError("usage: node scripts/bootstrap.mjs <bun-script> [args...]");
  if (existsSync(OLD_SOURCE_LIST)) rmSync(OLD_SOURCE_LIST, { force: true });
  const bun = ensureBun(ROOT);
  const redis = ensureRedis({ cacheDir: CACHE });
  const nats = ensureNats({ cacheDir: CACHE });
  ensureOpenBlas();
  const kernel = ensureDenseKernel({ root: ROOT, cacheDir: CACHE });
  if (runsBrowserTests(args[0], args.slice(1))) ensureChromium();
  if (runsPythonTests(args[0], args.slice(1))) ensurePythonPackages();
  if (redis && nats) log(`Redis ${redis.version}, nats-server ${nats.version}`);

  const env = { ...process.env };
  if (kernel) env.EMBEDDINGS_KERNEL = kernel;
  if (redis) env.REDIS_SERVER_BIN = redis.server;
  if (redis?.cli) env.REDIS_CLI_BIN = resolve(redis.cli);
  if (nats) env.NATS_SERVER_BIN = nats.bin;

  const child = spawn(bun, args, { stdio: "inherit", env });
  // A terminal Ctrl-C reaches the child directly too; forwarding covers `kill <our pid>` from scripts and supervisors.
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("error", (e) => {
    log(`cannot start bun: ${e.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (osc.signals[signal] ?? 0)));
}

try {
  main();
} catch (e) {
  log(e instanceof SetupError ? e.message : `unexpected error: ${e?.stack ?? e}`);
  process.exit(1);
}
