// Set-up steps in their own Node process: a Redis build, the NATS download and the system packages proceed while
// `npm install` runs, so that on a fresh machine their times overlap instead of adding up. Node builtins only.
import { spawn } from "node:child_process";
import { writeSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SetupError } from "./shell.mjs";

const SELF = fileURLToPath(import.meta.url);

/** Set-up processes still running: a signal to the bootstrap stops them too (see stopAll). */
const running = new Set();

/**
 * Spawns a set-up command and remembers it until it exits. `group` puts it in a process group of its own, which
 * stopAll signals as a whole: a build's compilers are its grandchildren.
 * @param {{ group?: boolean } & import("node:child_process").SpawnOptions} opts
 */
export function spawnTracked(cmd, args, { group = false, ...opts } = {}) {
  const child = spawn(cmd, args, { ...opts, detached: group });
  const entry = { child, group };
  running.add(entry);
  child.on("exit", () => running.delete(entry));
  child.on("error", () => running.delete(entry));
  return child;
}

/** Sends `signal` to every set-up process still running (the whole group of those started with one). */
export function stopAll(signal = "SIGTERM") {
  for (const { child, group } of running) {
    try {
      if (group) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {} // gone meanwhile
  }
}

/**
 * Runs `module`'s export `name` with `arg` (plain JSON) in a Node process of its own and resolves to what it
 * returns. Its `bootstrap:` lines go straight to stderr; the result comes back on file descriptor 3. A SetupError
 * thrown there is rethrown here as one, with the same message.
 * @param {string} module absolute path of an ES module
 * @param {string} name
 * @param {unknown} arg
 * @returns {Promise<any>}
 */
export function inBackground(module, name, arg) {
  const child = spawnTracked(process.execPath, [SELF, module, name, JSON.stringify(arg)], {
    stdio: ["ignore", "inherit", "inherit", "pipe"],
    group: true,
  });
  let out = "";
  child.stdio[3]?.on("data", (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.on("error", (e) => reject(new Error(`cannot start the ${name} step: ${e.message}`)));
    child.on("close", (code, signal) => {
      let answer;
      try {
        answer = JSON.parse(out);
      } catch {
        return reject(new SetupError(`the ${name} step stopped (${signal ?? `exit code ${code}`}) without a result`));
      }
      if (!answer.error) resolve(answer.result ?? null);
      else reject(answer.setup ? new SetupError(answer.error) : new Error(`${name}: ${answer.error}`));
    });
  });
}

/** The child's side: node background.mjs <module> <name> <json arg>. */
async function runStep([module, name, arg]) {
  let answer;
  try {
    const exports = await import(pathToFileURL(module).href);
    answer = { result: await exports[name](JSON.parse(arg)) };
  } catch (e) {
    answer = e instanceof SetupError ? { error: e.message, setup: true } : { error: e?.stack ?? String(e) };
  }
  writeSync(3, JSON.stringify(answer));
}

if (process.argv[1] === SELF) await runStep(process.argv.slice(2));
