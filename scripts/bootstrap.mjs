#!/usr/bin/env node
// Usage: node scripts/bootstrap.mjs <bun-script> [args...]
//
// Gets a fresh machine to the point where the stack can run, then hands over
// to Bun. Node builtins only: this runs *before* `npm install`.
//   1. npm install (when node_modules/.bin/bun is missing or broken)
//   2. Redis >= 8 (needed for VADD/VSIM): PATH, cache, or build from Debian source
//   3. nats-server: PATH, /usr/sbin, or apt-get install
//   3b. OpenBLAS (libopenblas0-pthread) for the offline embedding model: optional, ~3× faster
//   3c. the model's AVX-512 product kernel (services/search/embedder/dense.c), when the CPU has
//       AVX-512 and there is a C compiler: optional, ~2× faster again
//   4. exec `bun <script> [args]` with REDIS_SERVER_BIN / REDIS_CLI_BIN / NATS_SERVER_BIN
//      (and EMBEDDINGS_KERNEL) set
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants as fsc, copyFileSync, chmodSync, existsSync, mkdirSync,
  mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir, constants as osc } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BUN = join(ROOT, "node_modules", ".bin", "bun");
const CACHE = join(homedir(), ".cache", "memory-service");
const SRC_LIST = "/etc/apt/sources.list.d/memory-service-trixie-src.list";
const IS_ROOT = process.getuid?.() === 0;
const REDIS_HINT = "Install Redis >= 8.0 by hand (redis-server and redis-cli on PATH, or set " +
  "REDIS_SERVER_BIN / REDIS_CLI_BIN), or set REDIS_URL to a running Redis 8.";
const NATS_HINT = "Install nats-server by hand (on PATH, or set NATS_SERVER_BIN), or set NATS_URL to a running server with JetStream.";

/** A set-up problem the user has to fix by hand: printed as a plain message, no stack. */
class SetupError extends Error {}

const log = (msg) => process.stderr.write(`bootstrap: ${msg}\n`);

function which(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const p = join(dir || ".", name);
    try { accessSync(p, fsc.X_OK); return resolve(p); } catch {}
  }
  return null;
}

/** Run quietly; returns {ok, out}. Never throws (missing binary => ok:false). */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...opts });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? r.error.message : ""}` };
}

/** Last lines of a tool's output, indented under our message. */
const tail = (text, n = 8) => text.trim().split("\n").slice(-n).map((l) => `    ${l}`).join("\n");

// apt needs root: use it directly, or passwordless sudo, or give up clearly.
let sudoChecked = false;
function checkApt() {
  if (!which("apt-get")) throw new SetupError("there is no apt-get here (not Debian/Ubuntu?)");
  if (IS_ROOT || sudoChecked) return;
  if (!which("sudo") || !run("sudo", ["-n", "true"]).ok)
    throw new SetupError("apt-get needs root or passwordless sudo, and we have neither");
  sudoChecked = true;
}
function runPrivileged(cmd, args, opts = {}) {
  checkApt();
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  // sudo resets the environment, so pass DEBIAN_FRONTEND through `env`.
  return IS_ROOT ? run(cmd, args, { ...opts, env })
    : run("sudo", ["-n", "env", "DEBIAN_FRONTEND=noninteractive", cmd, ...args], opts);
}

// ---------------------------------------------------------------- 1. npm
function ensureBun() {
  if (existsSync(BUN) && run(BUN, ["--version"]).ok) return;
  log("node_modules/.bin/bun missing or not runnable; running npm install…");
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new SetupError("`npm install` failed (see output above).");
  if (!run(BUN, ["--version"]).ok)
    throw new SetupError("npm install finished but node_modules/.bin/bun does not run; " +
      "check that the `bun` package's postinstall was allowed (package.json allowScripts).");
}

// ---------------------------------------------------------------- 2. Redis
// "Redis server v=8.0.2 ..."; anchored so e.g. Valkey 8 (no vector sets) does not count.
function redisMajor(bin) {
  const m = /^Redis server v=(\d+)\./.exec(run(bin, ["--version"]).out);
  return m ? Number(m[1]) : 0;
}

function cachedRedis() {
  if (!existsSync(CACHE)) return null;
  // Newest first; "redis-8.0.10" must beat "redis-8.0.2", hence numeric compare.
  const dirs = readdirSync(CACHE).filter((d) => /^redis-\d/.test(d))
    .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
  for (const d of dirs) {
    const server = join(CACHE, d, "bin", "redis-server");
    const cli = join(CACHE, d, "bin", "redis-cli");
    if (existsSync(cli) && redisMajor(server) >= 8) return { server, cli };
  }
  return null;
}

// Errors here are the *reason*; ensureRedis() adds what to install instead.
function buildRedis() {
  for (const tool of ["make", "gcc", "tar"])
    if (!which(tool)) throw new SetupError(`building it needs \`${tool}\` (apt-get install build-essential)`);
  checkApt(); // before announcing a build we could not do
  log("building Redis 8 from Debian's source package (about 60-80 s)…");

  // A deb-src entry for trixie only, used via a private apt sourcelist so the
  // system's normal apt configuration is left untouched.
  let r = runPrivileged("tee", [SRC_LIST], { input: "deb-src http://deb.debian.org/debian trixie main\n" });
  if (!r.ok) throw new SetupError(`cannot write ${SRC_LIST}:\n${tail(r.out, 2)}`);
  log("  fetching the redis source package index (apt-get update)…");
  r = runPrivileged("apt-get", ["update", "-o", `Dir::Etc::sourcelist=${SRC_LIST}`,
    "-o", "Dir::Etc::sourceparts=-", "-o", "APT::Get::List-Cleanup=0"]);
  if (!r.ok) throw new SetupError(`apt-get update for the redis source failed:\n${tail(r.out)}`);

  const work = mkdtempSync(join(tmpdir(), "memory-service-redis-"));
  // apt-get source needs no root; it only downloads into cwd.
  r = run("apt-get", ["source", "--download-only", "redis"], { cwd: work });
  const tarball = readdirSync(work).find((f) => /^redis_.*\.orig\.tar\.gz$/.test(f));
  if (!r.ok || !tarball) throw new SetupError(`apt-get source redis failed:\n${tail(r.out)}`);
  const version = /^redis_(.+)\.orig\.tar\.gz$/.exec(tarball)[1];

  log(`  compiling redis ${version} (make -j2)…`);
  const srcDir = join(work, "src");
  mkdirSync(srcDir);
  r = run("tar", ["-xzf", join(work, tarball), "-C", srcDir]);
  if (!r.ok) throw new SetupError(`cannot unpack ${tarball}: ${tail(r.out, 3)}`);
  const top = readdirSync(srcDir).map((d) => join(srcDir, d)).find((d) => existsSync(join(d, "src")));
  if (!top) throw new SetupError(`unexpected layout in ${tarball} (no src/ directory)`);
  const logFile = join(work, "make.log");
  r = run("make", ["-j2", "BUILD_TLS=no", "USE_SYSTEMD=no"], { cwd: top });
  writeFileSync(logFile, r.out);
  if (!r.ok) throw new SetupError(`compiling it failed (full log: ${logFile}):\n${tail(r.out)}`);

  // Stage then rename, so an interrupted copy never looks like a valid cache.
  const dest = join(CACHE, `redis-${version}`);
  const stage = `${dest}.tmp-${process.pid}`;
  mkdirSync(join(stage, "bin"), { recursive: true });
  for (const b of ["redis-server", "redis-cli"]) {
    copyFileSync(join(top, "src", b), join(stage, "bin", b));
    chmodSync(join(stage, "bin", b), 0o755);
  }
  rmSync(dest, { recursive: true, force: true });
  renameSync(stage, dest);
  rmSync(work, { recursive: true, force: true });
  log(`  Redis ${version} cached in ${dest}`);
  return { server: join(dest, "bin", "redis-server"), cli: join(dest, "bin", "redis-cli") };
}

/** The redis-cli built alongside a server (same dir), else any on PATH. */
function cliNextTo(server) {
  const cli = join(dirname(resolve(server)), "redis-cli");
  return existsSync(cli) ? cli : which("redis-cli") ?? undefined;
}

function ensureRedis() {
  if (process.env.REDIS_URL) return {};
  // An explicit REDIS_SERVER_BIN wins if it is good enough.
  const envBin = process.env.REDIS_SERVER_BIN;
  if (envBin) {
    if (redisMajor(envBin) >= 8)
      return { server: resolve(envBin), cli: process.env.REDIS_CLI_BIN ?? cliNextTo(envBin) };
    log(`ignoring REDIS_SERVER_BIN=${envBin}: not a runnable Redis >= 8`);
  }
  const onPath = which("redis-server");
  if (onPath && redisMajor(onPath) >= 8) return { server: onPath, cli: cliNextTo(onPath) };
  const cached = cachedRedis();
  if (cached) return cached;
  try {
    return buildRedis();
  } catch (e) {
    if (!(e instanceof SetupError)) throw e;
    throw new SetupError(`no Redis >= 8 found and ${e.message}\n${REDIS_HINT}`);
  }
}

// ---------------------------------------------------------------- 3. NATS
function ensureNats() {
  if (process.env.NATS_URL) return undefined;
  const found = () => which("nats-server") ?? (existsSync("/usr/sbin/nats-server") ? "/usr/sbin/nats-server" : null);
  let bin = found();
  if (bin) return bin;
  try { checkApt(); } catch (e) { throw new SetupError(`nats-server is missing and ${e.message}\n${NATS_HINT}`); }
  log("installing nats-server with apt-get…");
  let r = runPrivileged("apt-get", ["install", "-y", "nats-server"]);
  if (!r.ok) { // usually stale/missing package lists
    runPrivileged("apt-get", ["update"]);
    r = runPrivileged("apt-get", ["install", "-y", "nats-server"]);
  }
  bin = found();
  if (!r.ok || !bin) throw new SetupError(`apt-get install nats-server failed:\n${tail(r.out)}\n${NATS_HINT}`);
  return bin;
}

// ---------------------------------------------------------------- 3b. OpenBLAS
// The search service runs its model's forward pass on OpenBLAS when the library is there
// (services/search/embedder/blas.ts lists the same paths); without it the model still works, ~3× slower.
const OPENBLAS = ["x86_64", "aarch64"].flatMap((arch) => [
  `/usr/lib/${arch}-linux-gnu/libopenblas.so.0`,
  `/usr/lib/${arch}-linux-gnu/openblas-pthread/libopenblas.so.0`,
]);
function ensureOpenBlas() {
  if (process.env.EMBEDDINGS_URL || process.env.EMBEDDINGS_BLAS === "off") return;
  if (OPENBLAS.some((p) => existsSync(p))) return;
  try { checkApt(); } catch (e) { log(`OpenBLAS is missing and ${e.message}: the embedding model will run ~3× slower`); return; }
  log("installing OpenBLAS (libopenblas0-pthread) with apt-get…");
  let r = runPrivileged("apt-get", ["install", "-y", "--no-install-recommends", "libopenblas0-pthread"]);
  if (!r.ok) {
    runPrivileged("apt-get", ["update"]);
    r = runPrivileged("apt-get", ["install", "-y", "--no-install-recommends", "libopenblas0-pthread"]);
  }
  if (!r.ok) log(`apt-get install libopenblas0-pthread failed; the embedding model will run ~3× slower:\n${tail(r.out)}`);
}

// ---------------------------------------------------------------- 3c. the model's kernel
// The offline model's products with its weights run ~2.7× faster on a small AVX-512 kernel than on
// OpenBLAS (services/search/embedder/dense.ts). Built once per source version into the cache; the
// search service checks the CPU again before using it. Without it, OpenBLAS does the products.
const DENSE_SOURCE = join(ROOT, "services", "search", "embedder", "dense.c");
function ensureDenseKernel() {
  if (process.env.EMBEDDINGS_URL || process.env.EMBEDDINGS_KERNEL !== undefined) return undefined;
  let cpu = "";
  try { cpu = readFileSync("/proc/cpuinfo", "utf8"); } catch {}
  if (!/^flags\s*:.*\bavx512f\b/m.test(cpu)) return undefined;
  const source = readFileSync(DENSE_SOURCE);
  const out = join(CACHE, `dense-${createHash("sha256").update(source).digest("hex").slice(0, 16)}.so`);
  if (existsSync(out)) return out;
  const cc = which("cc") ?? which("gcc");
  if (!cc) { log("no C compiler (cc): the embedding model's products stay on OpenBLAS"); return undefined; }
  mkdirSync(CACHE, { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  const r = run(cc, ["-O3", "-mavx512f", "-shared", "-fPIC", "-o", tmp, DENSE_SOURCE]);
  if (!r.ok) { rmSync(tmp, { force: true }); log(`building ${DENSE_SOURCE} failed; the embedding model's products stay on OpenBLAS:\n${tail(r.out)}`); return undefined; }
  renameSync(tmp, out);
  log(`built the embedding model's AVX-512 kernel: ${out}`);
  return out;
}

// ---------------------------------------------------------------- 4. hand over
function main() {
  const args = process.argv.slice(2);
  if (args.length === 0) throw new SetupError("usage: node scripts/bootstrap.mjs <bun-script> [args...]");
  ensureBun();
  const redis = ensureRedis();
  const nats = ensureNats();
  ensureOpenBlas();
  const kernel = ensureDenseKernel();

  const env = { ...process.env };
  if (kernel) env.EMBEDDINGS_KERNEL = kernel;
  if (redis.server) env.REDIS_SERVER_BIN = redis.server;
  if (redis.cli) env.REDIS_CLI_BIN = resolve(redis.cli);
  if (nats) env.NATS_SERVER_BIN = resolve(nats);

  const child = spawn(BUN, args, { stdio: "inherit", env });
  // A terminal Ctrl-C reaches the child directly too; forwarding covers
  // `kill <our pid>` from scripts/supervisors.
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("error", (e) => { log(`cannot start bun: ${e.message}`); process.exit(1); });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (osc.signals[signal] ?? 0)));
}

try {
  main();
} catch (e) {
  log(e instanceof SetupError ? e.message : `unexpected error: ${e?.message ?? e}`);
  process.exit(1);
}
