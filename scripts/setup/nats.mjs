// nats-server for the local stack, on the minor version production runs (docker-compose.yml and k8s pin the same):
// a runnable one on PATH, a cached one, or Debian's package of that minor unpacked into the cache (not installed).
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEBIAN_MIRROR, privateApt } from "./apt.mjs";
import { log, run, SetupError, which } from "./shell.mjs";
import { atLeast, compareVersions, upstreamOf } from "./versions.mjs";

/** The NATS minor of the production images; a local nats-server older than this is refused. */
export const NATS_MINOR = "2.10";

export const NATS_SOURCES = ["trixie", "trixie-updates", "unstable"].map((suite) => ({
  type: "deb",
  uri: DEBIAN_MIRROR,
  suite,
}));

/** "nats-server: v2.10.27" → "2.10.27". */
export function natsVersion(bin) {
  return /nats-server: v(\d+\.\d+\.\d+)/.exec(run(bin, ["--version"]).out)?.[1] ?? null;
}

const sameMinor = (version) => version.startsWith(`${NATS_MINOR}.`);

/** @typedef {{ bin: string, version: string, origin: string }} NatsBinary */

/** The newest cached nats-server of the production minor. @returns {NatsBinary | null} */
export function cachedNats(cacheDir) {
  if (!existsSync(cacheDir)) return null;
  const dirs = readdirSync(cacheDir)
    .filter((d) => /^nats-\d+\.\d+\.\d+$/.test(d) && sameMinor(d.slice(5)))
    .sort((a, b) => compareVersions(b.slice(5), a.slice(5)));
  for (const d of dirs) {
    const bin = join(cacheDir, d, "bin", "nats-server");
    const version = existsSync(bin) ? natsVersion(bin) : null;
    if (version) return { bin, version, origin: `cached in ${join(cacheDir, d)}` };
  }
  return null;
}

/**
 * Downloads Debian's nats-server package of the production minor (the newest one; another >= that minor when no
 * suite has it), unpacks its binary into `<cacheDir>/nats-<version>/bin`, and returns it. Needs no root.
 * @param {{ cacheDir: string, sources?: import("./apt.mjs").AptSource[] }} opts
 * @returns {NatsBinary}
 */
export function fetchNats({ cacheDir, sources = NATS_SOURCES }) {
  const apt = privateApt(join(cacheDir, "apt-nats"), sources);
  const suites = sources.map((s) => s.suite).join(", ");
  log(`fetching nats-server ${NATS_MINOR} from Debian's ${suites} packages…`);
  const index = apt.update();
  const listed = apt
    .candidates("nats-server", "deb")
    .map((c) => ({ ...c, upstream: upstreamOf(c.version) }))
    .filter((c) => atLeast(c.upstream, NATS_MINOR))
    // The production minor first, then newer ones; newest first within each.
    .sort(
      (a, b) =>
        Number(sameMinor(b.upstream)) - Number(sameMinor(a.upstream)) || compareVersions(b.upstream, a.upstream),
    );
  const tried = index.failed.map((suite) => `${suite}: no index`);
  for (const c of listed) {
    const work = mkdtempSync(join(tmpdir(), "memory-service-nats-"));
    try {
      const got = apt.download("nats-server", c.version, work);
      const deb = got.ok ? readdirSync(work).find((f) => f.endsWith(".deb")) : undefined;
      if (!deb) {
        tried.push(`${c.version} (${c.suite}): ${got.reason ?? "no .deb downloaded"}`);
        continue;
      }
      const unpacked = run("dpkg-deb", ["-x", join(work, deb), join(work, "root")]);
      const inside = ["usr/sbin/nats-server", "usr/bin/nats-server"].map((p) => join(work, "root", p)).find(existsSync);
      const version = inside && unpacked.ok ? natsVersion(inside) : null;
      if (!inside || !version) {
        tried.push(`${c.version} (${c.suite}): the packaged nats-server does not run here`);
        continue;
      }
      const dest = join(cacheDir, `nats-${version}`);
      const stage = `${dest}.tmp-${process.pid}`;
      mkdirSync(join(stage, "bin"), { recursive: true });
      copyFileSync(inside, join(stage, "bin", "nats-server"));
      chmodSync(join(stage, "bin", "nats-server"), 0o755);
      rmSync(dest, { recursive: true, force: true });
      renameSync(stage, dest);
      if (!sameMinor(version)) log(`warning: no nats-server ${NATS_MINOR} is offered; using ${version}`);
      log(`fetched nats-server ${version} from Debian ${c.suite}`);
      return { bin: join(dest, "bin", "nats-server"), version, origin: `fetched from Debian ${c.suite} into ${dest}` };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  if (listed.length === 0) tried.push(`no nats-server >= ${NATS_MINOR} listed`);
  throw new SetupError(`no nats-server >= ${NATS_MINOR} could be fetched from ${suites}; tried: ${tried.join("; ")}`);
}

/**
 * The nats-server the local stack runs: NATS_SERVER_BIN, then PATH or /usr/sbin, then the cache, then Debian's
 * package. One older than the production minor is passed over with one line saying so.
 * @returns {NatsBinary | null} null when NATS_URL names a server to use instead
 */
export function ensureNats({ cacheDir }) {
  if (process.env.NATS_URL) return null;
  const found = [process.env.NATS_SERVER_BIN, which("nats-server"), "/usr/sbin/nats-server"]
    .filter((bin) => bin && existsSync(bin))
    .filter((bin, i, all) => all.indexOf(bin) === i);
  for (const bin of found) {
    const version = natsVersion(bin);
    if (version && atLeast(version, NATS_MINOR)) return { bin: resolve(bin), version, origin: bin };
    const what = version
      ? `nats-server ${version} is older than ${NATS_MINOR}, the production minor`
      : "it does not run";
    log(`ignoring ${bin}: ${what}; using a private nats-server ${NATS_MINOR} instead`);
  }
  const cached = cachedNats(cacheDir);
  if (cached) return cached;
  try {
    return fetchNats({ cacheDir });
  } catch (e) {
    if (!(e instanceof SetupError)) throw e;
    throw new SetupError(
      `${e.message}\nInstall nats-server >= ${NATS_MINOR} by hand (on PATH, or NATS_SERVER_BIN), ` +
        "or set NATS_URL to a running server with JetStream.",
    );
  }
}
