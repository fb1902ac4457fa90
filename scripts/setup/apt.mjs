// A private apt: its own source list, package lists and cache inside one directory, so fetching a package from a
// newer Debian suite leaves the system's apt configuration untouched and needs no root (nothing is installed).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastError, run, which } from "./shell.mjs";
import { SetupError } from "./shell.mjs";

export const DEBIAN_MIRROR = process.env.DEBIAN_MIRROR ?? "http://deb.debian.org/debian";
export const DEBIAN_SECURITY_MIRROR = process.env.DEBIAN_SECURITY_MIRROR ?? "http://deb.debian.org/debian-security";

/**
 * @typedef {{ type: "deb" | "deb-src", uri: string, suite: string }} AptSource
 * @typedef {{ version: string, suite: string }} AptCandidate
 */

/** @param {string} dir @param {AptSource[]} sources */
export function privateApt(dir, sources) {
  if (!which("apt-get")) throw new SetupError("there is no apt-get here (not Debian/Ubuntu?)");
  const list = join(dir, "sources.list");
  mkdirSync(join(dir, "lists", "partial"), { recursive: true });
  mkdirSync(join(dir, "cache", "archives", "partial"), { recursive: true });
  writeFileSync(list, sources.map((s) => `${s.type} ${s.uri} ${s.suite} main\n`).join(""));
  const options = [
    ["Dir::Etc::sourcelist", list],
    ["Dir::Etc::sourceparts", "-"],
    ["Dir::State::Lists", join(dir, "lists")],
    ["Dir::Cache", join(dir, "cache")],
    ["APT::Get::List-Cleanup", "0"],
    // Package descriptions are never read here: no Translation-* indexes to download.
    ["Acquire::Languages", "none"],
    // The lists and cache are ours alone; the system's apt lock is not involved.
    ["Debug::NoLocking", "1"],
  ].flatMap(([k, v]) => ["-o", `${k}=${v}`]);
  const apt = (tool, args, cwd) => run(tool, [...options, ...args], { cwd, env: { ...process.env, LC_ALL: "C" } });

  return {
    sources,
    /**
     * Fetches the indexes. A suite that is missing does not stop the others: the result says which failed.
     * @returns {{ failed: string[], out: string }}
     */
    update() {
      const r = apt("apt-get", ["update"]);
      const failed = sources.filter((s) => new RegExp(`(Err|E):.*\\b${s.suite}\\b`).test(r.out)).map((s) => s.suite);
      return { failed, out: r.out };
    },
    /**
     * Versions of a source (`deb-src`) or binary (`deb`) package the indexes list, with the suite of each.
     * @returns {AptCandidate[]}
     */
    candidates(pkg, type) {
      const r = apt("apt-cache", ["madison", pkg]);
      const kind = type === "deb-src" ? "Sources" : "Packages";
      return r.out.split("\n").flatMap((line) => {
        const [name, version, where] = line.split("|").map((f) => f.trim());
        if (name !== pkg || !where?.endsWith(kind)) return [];
        const suite = /\s(\S+)\/main\b/.exec(where)?.[1] ?? "?";
        return [{ version, suite }];
      });
    },
    /** Downloads the upstream tarball of a source package into cwd; apt checks it against the signed index. */
    fetchSourceTarball(pkg, version, cwd) {
      const r = apt("apt-get", ["source", "--tar-only", "--download-only", `${pkg}=${version}`], cwd);
      return r.ok ? { ok: true } : { ok: false, reason: lastError(r.out) };
    },
    /** Downloads one binary package (.deb) into cwd, without installing it. */
    download(pkg, version, cwd) {
      const r = apt("apt-get", ["download", `${pkg}=${version}`], cwd);
      return r.ok ? { ok: true } : { ok: false, reason: lastError(r.out) };
    },
  };
}
