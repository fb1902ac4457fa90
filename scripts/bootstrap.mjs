#!/usr/bin/env node
// Usage: node scripts/bootstrap.mjs <bun-script> [args...]
//
// Gets a fresh machine to the point where the stack can run, then hands over
// to Bun. Node builtins only: this runs *before* `npm install`.
//   1. npm install (when node_modules/.bin/bun is missing or broken)
//   2. Redis >= 8 (needed for VADD/VSIM): PATH, cache, or build from Debian source
//   3. nats-server: PATH, /usr/sbin, or apt-get install
//   4. exec `bun <script> [args]` with REDIS_SERVER_BIN / REDIS_CLI_BIN / NATS_SERVER_BIN set
import { spawn, spawnSync } from "node:child_process";
import { accessSync, constants as fsc, copyFileSync, chmodSync, existsSync, mkdirSync,
  mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir, constants as osc } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BUN = join(ROOT, "node_modules", ".bin", "bun");
const CACHE = join(homedir(), ".cache", "memory-service");
const SRC_LIST = "/etc/apt/sources.list.d/memory-service-trixie-src.list";
const IS_ROOT = process.getuid?.() === 0;
const HINT = "Install by hand: Redis >= 8.0 (redis-server, redis-cli) and nats-server on PATH, " +
  "or set REDIS_URL / NATS_URL to running instances.";

/** A set-up problem the user has to fix by hand: printed as one line, no stack. */
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

const tail = (text, n = 15) => text.trim().split("\n").slice(-n).join("\n");

// apt needs root: use it directly, or passwordless sudo, or give up clearly.
let sudoChecked = false;
function privileged(cmd, args) {
  if (!which("apt-get")) throw new SetupError(`no apt-get here (not Debian/Ubuntu?). ${HINT}`);
  if (IS_ROOT) return [cmd, args];
  if (!sudoChecked) {
    if (!which("sudo") || !run("sudo", ["-n", "true"]).ok)
      throw new SetupError("installing system packages needs root or passwordless sudo. " + HINT);
    sudoChecked = true;
  }
  return ["sudo", ["-n", cmd, ...args]];
}
function runPrivileged(cmd, args, opts) {
  const [c, a] = privileged(cmd, args);
  return run(c, a, { ...opts, env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
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
function redisMajor(bin) {
  const m = /v=(\d+)\./.exec(run(bin, ["--version"]).out);
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

function buildRedis() {
  for (const tool of ["make", "gcc", "tar"])
    if (!which(tool))
      throw new SetupError(`building Redis 8 needs \`${tool}\` (apt-get install build-essential). ${HINT}`);
  log("building Redis 8 from Debian's source package (about 60-80 s)…");

  // A deb-src entry for trixie only, used via a private apt sourcelist so the
  // system's normal apt configuration is left untouched.
  let r = runPrivileged("tee", [SRC_LIST], { input: "deb-src http://deb.debian.org/debian trixie main\n" });
  if (!r.ok) throw new SetupError(`cannot write ${SRC_LIST}: ${tail(r.out, 1)}. ${HINT}`);
  log("  fetching the redis source package index (apt-get update)…");
  r = runPrivileged("apt-get", ["update", "-o", `Dir::Etc::sourcelist=${SRC_LIST}`,
    "-o", "Dir::Etc::sourceparts=-", "-o", "APT::Get::List-Cleanup=0"]);
  if (!r.ok) throw new SetupError(`apt-get update for the redis source failed:\n${tail(r.out)}\n${HINT}`);

  const work = mkdtempSync(join(tmpdir(), "memory-service-redis-"));
  // apt-get source needs no root; it only downloads into cwd.
  r = run("apt-get", ["source", "--download-only", "redis"], { cwd: work });
  const tarball = readdirSync(work).find((f) => /^redis_.*\.orig\.tar\.gz$/.test(f));
  if (!r.ok || !tarball) throw new SetupError(`apt-get source redis failed:\n${tail(r.out)}\n${HINT}`);
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
  if (!r.ok) throw new SetupError(`compiling Redis failed (full log: ${logFile}):\n${tail(r.out)}\n${HINT}`);

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

function ensureRedis() {
  if (process.env.REDIS_URL) return {};
  // An explicit REDIS_SERVER_BIN wins if it is good enough.
  const envBin = process.env.REDIS_SERVER_BIN;
  if (envBin && redisMajor(envBin) >= 8)
    return { server: resolve(envBin), cli: process.env.REDIS_CLI_BIN ?? which("redis-cli") ?? undefined };
  const onPath = which("redis-server");
  if (onPath && redisMajor(onPath) >= 8) {
    const cli = join(dirname(onPath), "redis-cli");
    return { server: onPath, cli: existsSync(cli) ? cli : which("redis-cli") ?? undefined };
  }
  return cachedRedis() ?? buildRedis();
}

// ---------------------------------------------------------------- 3. NATS
function ensureNats() {
  if (process.env.NATS_URL) return undefined;
  const found = () => which("nats-server") ?? (existsSync("/usr/sbin/nats-server") ? "/usr/sbin/nats-server" : null);
  let bin = found();
  if (bin) return bin;
  log("installing nats-server with apt-get…");
  let r = runPrivileged("apt-get", ["install", "-y", "nats-server"]);
  if (!r.ok) { // usually stale/missing package lists
    runPrivileged("apt-get", ["update"]);
    r = runPrivileged("apt-get", ["install", "-y", "nats-server"]);
  }
  bin = found();
  if (!r.ok || !bin) throw new SetupError(`apt-get install nats-server failed:\n${tail(r.out)}\n${HINT}`);
  return bin;
}

// ---------------------------------------------------------------- 4. hand over
function main() {
  const args = process.argv.slice(2);
  if (args.length === 0) throw new SetupError("usage: node scripts/bootstrap.mjs <bun-script> [args...]");
  ensureBun();
  const redis = ensureRedis();
  const nats = ensureNats();

  const env = { ...process.env };
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
  log(e instanceof SetupError ? e.message : `unexpected error: ${e?.message ?? e}. ${HINT}`);
  process.exit(1);
}
