// Redis >= 8 (vector sets) for the local stack: a runnable one on PATH, a cached build, or a build of the newest
// upstream Redis that Debian's source indexes list, fetched through a private apt.
import {
  copyFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { DEBIAN_MIRROR, DEBIAN_SECURITY_MIRROR, privateApt } from "./apt.mjs";
import { lastError, log, run, SetupError, which } from "./shell.mjs";
import { atLeast, compareVersions, upstreamOf } from "./versions.mjs";

/** Oldest Redis the stack runs on at all: vector sets arrived in 8.0. */
export const REDIS_MIN = "8.0";
/**
 * Oldest Redis the stack accepts without rebuilding: 8.0.3 fixes CVE-2025-32023, and 8.0.4 fixes CVE-2025-49844 (a
 * use-after-free in Lua, which every request here runs), CVE-2025-46817, CVE-2025-46818 and CVE-2025-46819.
 */
export const REDIS_SAFE = "8.0.4";
const SAFE_WHY = `older than ${REDIS_SAFE}, which fixes CVE-2025-49844 (Lua use-after-free) and four more`;

/** Where Debian publishes Redis source packages, newest suites last; every one is asked, the newest version wins. */
export const REDIS_SOURCES = [
  { type: "deb-src", uri: DEBIAN_MIRROR, suite: "trixie" },
  { type: "deb-src", uri: DEBIAN_SECURITY_MIRROR, suite: "trixie-security" },
  { type: "deb-src", uri: DEBIAN_MIRROR, suite: "trixie-updates" },
  { type: "deb-src", uri: DEBIAN_MIRROR, suite: "unstable" },
];

/**
 * What the build makes, and how. The stack runs redis-server (vector sets are built into it by default; the other
 * modules need BUILD_WITH_MODULES and the stack uses none) and the cluster set-up runs redis-cli; the benchmark,
 * sentinel and check-aof/rdb copies are skipped. Upstream's -O3 with link-time optimisation and its debug info
 * (-g, jemalloc's -g3) cost CPU and a long link for nothing the local stack needs: -O2 with frame pointers, no LTO,
 * no debug info (measured on 2 cores: 118 CPU s → 76, about half of it jemalloc's, whose own -O3 stays). The
 * source, and so the version and its security fixes, are upstream's as Debian ships them.
 */
export const REDIS_MAKE_ARGS = [
  "BUILD_TLS=no",
  "USE_SYSTEMD=no",
  "OPTIMIZATION=-O2 -fno-omit-frame-pointer",
  "DEBUG=",
  // Appended after jemalloc's own flags (-O3 -funroll-loops stay); CFLAGS would replace them.
  "JEMALLOC_CONFIGURE_OPTS=EXTRA_CFLAGS=-g0",
  "redis-server",
  "redis-cli",
];

/** "Redis server v=8.0.6 sha=…" → "8.0.6"; anchored so that Valkey 8 (no vector sets) does not count. */
export function redisVersion(bin) {
  return /^Redis server v=(\d+\.\d+\.\d+)/.exec(run(bin, ["--version"]).out)?.[1] ?? null;
}

/** @typedef {{ server: string, cli: string | undefined, version: string, origin: string }} RedisBinaries */

/** The newest cached build, whatever its version. @returns {RedisBinaries | null} */
export function cachedRedis(cacheDir) {
  if (!existsSync(cacheDir)) return null;
  const builds = readdirSync(cacheDir)
    .filter((d) => /^redis-\d+(\.\d+)*$/.test(d))
    .sort((a, b) => compareVersions(b.slice(6), a.slice(6)));
  for (const d of builds) {
    const server = join(cacheDir, d, "bin", "redis-server");
    const cli = join(cacheDir, d, "bin", "redis-cli");
    const version = existsSync(cli) ? redisVersion(server) : null;
    if (version && atLeast(version, REDIS_MIN))
      return { server, cli, version, origin: `cached in ${join(cacheDir, d)}` };
  }
  return null;
}

/** The redis-cli built alongside a server (same directory), else any on PATH. */
function cliNextTo(server) {
  const cli = join(dirname(resolve(server)), "redis-cli");
  return existsSync(cli) ? cli : (which("redis-cli") ?? undefined);
}

/**
 * Fetches and builds the newest upstream Redis >= 8.0 that the given suites list, trying the next candidate when a
 * suite, a file or a build fails, and caches it as `<cacheDir>/redis-<version>`. Throws one SetupError naming every
 * suite and version tried when none works.
 * @param {{ cacheDir: string, sources?: import("./apt.mjs").AptSource[] }} opts
 * @returns {RedisBinaries}
 */
export function buildRedis({ cacheDir, sources = REDIS_SOURCES }) {
  for (const tool of ["make", "gcc", "tar"])
    if (!which(tool)) throw new SetupError(`building Redis needs \`${tool}\` (apt-get install build-essential)`);
  const started = Date.now();
  const apt = privateApt(join(cacheDir, "apt-redis"), sources);
  const suites = sources.map((s) => s.suite).join(", ");
  log(`looking for the newest Redis >= ${REDIS_MIN} in Debian's ${suites} sources…`);
  const index = apt.update();
  const candidates = newestFirst(apt.candidates("redis", "deb-src")).filter((c) => atLeast(c.upstream, REDIS_MIN));
  const tried = index.failed.map((suite) => `${suite}: no index`);
  for (const c of candidates) {
    // Debian may still offer only what was built before: then the cached build is it.
    const cached = cachedRedis(cacheDir);
    if (cached?.version === c.upstream) return cached;
    const work = mkdtempSync(join(tmpdir(), "memory-service-redis-"));
    try {
      const fetched = apt.fetchSourceTarball("redis", c.version, work);
      if (!fetched.ok) {
        tried.push(`${c.version} (${c.suite}): ${fetched.reason}`);
        continue;
      }
      log(`compiling Redis ${c.upstream} from Debian ${c.suite} (${c.version}); about a minute on 2 cores…`);
      const built = compile(work, c, cacheDir);
      if ("reason" in built) {
        tried.push(`${c.version} (${c.suite}): ${built.reason}`);
        continue;
      }
      const secs = Math.round((Date.now() - started) / 1000);
      log(`built Redis ${c.upstream} in ${secs} s, cached in ${dirname(dirname(built.server))}`);
      return built;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  if (candidates.length === 0) tried.push(`no redis >= ${REDIS_MIN} listed (${lastError(index.out) || "empty index"})`);
  throw new SetupError(
    `no Redis >= ${REDIS_MIN} could be fetched and built from ${suites}; tried: ${tried.join("; ")}`,
  );
}

/** Dedupes by Debian version (several suites list the same one) and sorts newest upstream first. */
function newestFirst(list) {
  const seen = new Map();
  for (const c of list) if (!seen.has(c.version)) seen.set(c.version, { ...c, upstream: upstreamOf(c.version) });
  return [...seen.values()].sort((a, b) => compareVersions(b.upstream, a.upstream));
}

/** Unpacks and compiles the fetched tarball; stages then renames, so an interrupted copy never looks cached. */
function compile(work, candidate, cacheDir) {
  const tarball = readdirSync(work).find((f) => /^redis_.*\.orig\.tar\.gz$/.test(f));
  if (!tarball) return { reason: "apt fetched no upstream tarball" };
  const srcDir = join(work, "src");
  mkdirSync(srcDir);
  let r = run("tar", ["-xzf", join(work, tarball), "-C", srcDir]);
  if (!r.ok) return { reason: `cannot unpack ${tarball}: ${r.out.trim().split("\n").at(-1)}` };
  const top = readdirSync(srcDir)
    .map((d) => join(srcDir, d))
    .find((d) => existsSync(join(d, "src")));
  if (!top) return { reason: `unexpected layout in ${tarball} (no src/ directory)` };
  const jobs = Math.max(2, availableParallelism());
  r = run("make", [`-j${jobs}`, "-C", "src", ...REDIS_MAKE_ARGS], { cwd: top });
  if (!r.ok) {
    const logFile = join(tmpdir(), `memory-service-redis-${candidate.upstream}-make.log`);
    writeFileSync(logFile, r.out);
    return { reason: `compiling failed (full log: ${logFile}): ${r.out.trim().split("\n").at(-1)}` };
  }
  const version = redisVersion(join(top, "src", "redis-server"));
  if (!version) return { reason: "the built redis-server does not run" };
  const dest = join(cacheDir, `redis-${version}`);
  const stage = `${dest}.tmp-${process.pid}`;
  mkdirSync(join(stage, "bin"), { recursive: true });
  for (const b of ["redis-server", "redis-cli"]) {
    copyFileSync(join(top, "src", b), join(stage, "bin", b));
    chmodSync(join(stage, "bin", b), 0o755);
  }
  const made = { debian: candidate.version, suite: candidate.suite, make: REDIS_MAKE_ARGS };
  writeFileSync(join(stage, "source.json"), JSON.stringify(made));
  rmSync(dest, { recursive: true, force: true });
  renameSync(stage, dest);
  const bin = join(dest, "bin");
  return { server: join(bin, "redis-server"), cli: join(bin, "redis-cli"), version, origin: `built in ${dest}` };
}

/**
 * The Redis the local stack runs: REDIS_SERVER_BIN, then PATH, then the cache, then a fresh build. Anything older
 * than REDIS_SAFE is passed over with one line saying why; a build is used even then if nothing newer can be had.
 * @returns {RedisBinaries | null} null when REDIS_URL names a Redis to use instead
 */
export function ensureRedis({ cacheDir }) {
  if (process.env.REDIS_URL) return null;
  const found = [];
  const envBin = process.env.REDIS_SERVER_BIN;
  if (envBin) found.push({ bin: envBin, what: `REDIS_SERVER_BIN=${envBin}`, cli: process.env.REDIS_CLI_BIN });
  const onPath = which("redis-server");
  if (onPath) found.push({ bin: onPath, what: onPath });
  for (const f of found) {
    const version = redisVersion(f.bin);
    if (version && atLeast(version, REDIS_SAFE))
      return { server: resolve(f.bin), cli: f.cli ?? cliNextTo(f.bin), version, origin: f.what };
    log(`ignoring ${f.what}: ${version ? `Redis ${version} is ${SAFE_WHY}` : `not a runnable Redis >= ${REDIS_MIN}`}`);
  }
  const cached = cachedRedis(cacheDir);
  if (cached && atLeast(cached.version, REDIS_SAFE)) return cached;
  if (cached) log(`rebuilding Redis: the cached ${cached.version} is ${SAFE_WHY}`);
  let built;
  try {
    built = buildRedis({ cacheDir });
  } catch (e) {
    if (!(e instanceof SetupError)) throw e;
    if (cached) {
      log(`${e.message}; running the cached ${cached.version}, which is ${SAFE_WHY}`);
      return cached;
    }
    throw new SetupError(
      `${e.message}\nInstall Redis >= ${REDIS_SAFE} by hand (redis-server and redis-cli on PATH, ` +
        "or REDIS_SERVER_BIN / REDIS_CLI_BIN), or set REDIS_URL to a running Redis 8.",
    );
  }
  if (!atLeast(built.version, REDIS_SAFE))
    log(`warning: the newest Redis Debian offers, ${built.version}, is ${SAFE_WHY}`);
  return built;
}
