// Installs Debian packages into the system: as root, or through passwordless sudo.
import { run, which } from "./shell.mjs";

const IS_ROOT = process.getuid?.() === 0;

/**
 * A function running `apt-get install -y --no-install-recommends <pkg>` quietly (on failure the package lists are
 * refreshed once and the install tried again: they are usually stale or missing on a new machine), or null when
 * neither root nor passwordless sudo is available.
 * @returns {((pkg: string) => { ok: boolean, out: string }) | null}
 */
export function aptInstaller() {
  if (!which("apt-get")) return null;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const viaSudo = !IS_ROOT && which("sudo") && run("sudo", ["-n", "true"]).ok;
  if (!IS_ROOT && !viaSudo) return null;
  // sudo resets the environment, so DEBIAN_FRONTEND goes through `env`.
  const apt = (args) =>
    IS_ROOT
      ? run("apt-get", args, { env })
      : run("sudo", ["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args]);
  return (pkg) => {
    let r = apt(["install", "-y", "--no-install-recommends", pkg]);
    if (!r.ok) {
      apt(["update"]);
      r = apt(["install", "-y", "--no-install-recommends", pkg]);
    }
    return r;
  };
}

/** Installs one package; null when that is not possible here (see aptInstaller). */
export const aptInstall = (pkg) => aptInstaller()?.(pkg) ?? null;
