// Process and logging helpers for the set-up scripts. Node builtins only: they run before `npm install`.
import { spawnSync } from "node:child_process";
import { accessSync, constants as fsc } from "node:fs";
import { delimiter, join, resolve } from "node:path";

/** A set-up problem the user has to fix by hand: printed as a plain message, no stack. */
export class SetupError extends Error {}

/** One `bootstrap:` line on stderr; the set-up stays quiet otherwise. */
export const log = (msg) => process.stderr.write(`bootstrap: ${msg}\n`);

/** The executable `name` on PATH, or null. */
export function which(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const p = join(dir || ".", name);
    try {
      accessSync(p, fsc.X_OK);
      return resolve(p);
    } catch {}
  }
  return null;
}

/**
 * Runs a command quietly and never throws (a missing binary gives ok: false).
 * @returns {{ ok: boolean, out: string }}
 */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...opts });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? r.error.message : ""}` };
}

/** The last lines of a tool's output, indented under our message. */
export const tail = (text, n = 8) =>
  text
    .trim()
    .split("\n")
    .slice(-n)
    .map((l) => `    ${l}`)
    .join("\n");

/** The last line of a tool's output that reads like an error, for a one-line reason. */
export function lastError(text) {
  const lines = text.trim().split("\n");
  return (lines.findLast((l) => /^(E:|Err:|error)/i.test(l.trim())) ?? lines.at(-1) ?? "").trim();
}
