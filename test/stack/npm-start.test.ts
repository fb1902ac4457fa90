import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../../scripts/stack/infra";

const ROOT = resolve(import.meta.dir, "../..");
const dataDir = mkdtempSync(join(tmpdir(), "npm-start-"));

/** Pids of live processes started for this data dir (every one inherits DATA_DIR). */
function processesOfThisStack(): number[] {
  const mark = `DATA_DIR=${dataDir}`;
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (/\) Z /.test(stat)) return []; // a zombie is already gone
      return readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(mark) ? [Number(entry)] : [];
    } catch {
      return []; // gone meanwhile, or not ours to read
    }
  });
}

afterAll(() => {
  for (const pid of processesOfThisStack()) process.kill(pid, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start", () => {
  test("serves, and SIGTERM to npm itself stops the whole stack (no orphaned service, Redis or NATS)", async () => {
    // A port the kernel just gave out, not a random one that another test's stack may hold.
    const port = await freePort();
    const output = Bun.file(join(dataDir, "npm-start.out"));
    const npm = Bun.spawn(["npm", "start", "--silent"], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", REDIS_URL: "", NATS_URL: "" },
      stdout: output,
      stderr: output,
    });
    let healthy = false;
    for (let i = 0; i < 120 && !healthy && npm.exitCode === null; i++) {
      healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await Bun.sleep(500);
    }
    if (!healthy) console.log(`npm start said:\n${(await output.text()).slice(-3000)}`);
    expect(healthy).toBe(true);
    expect(processesOfThisStack().length).toBeGreaterThan(3); // bootstrap, start, services, Redis, NATS

    npm.kill("SIGTERM");
    await npm.exited;
    let left = processesOfThisStack();
    for (let i = 0; i < 40 && left.length > 0; i++) {
      await Bun.sleep(250);
      left = processesOfThisStack();
    }
    expect(left).toEqual([]);
  }, 90_000);
});
