import { afterAll, expect, test } from "bun:test";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// A first start on a machine with nothing installed: `npm install`, finding Redis and finding nats-server each take
// a while (here a fake of each that sleeps). The bootstrap runs the last two while npm installs.
const ROOT = resolve(import.meta.dir, "..");
const NODE = Bun.which("node") ?? "node";
const SLEEP = 3;
const work = mkdtempSync(join(tmpdir(), "bootstrap-test-"));
afterAll(() => {
  for (const pid of processesMarked()) process.kill(pid, "SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

const mark = `BOOTSTRAP_TEST_MARK=${process.pid}-${Date.now()}`;
/** Live processes of this test's bootstraps: every one inherits the mark. */
function processesMarked(): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return [];
    try {
      if (/\) Z /.test(readFileSync(`/proc/${entry}/stat`, "utf8"))) return [];
      return readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(mark) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

function script(path: string, body: string) {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** A checkout with the real bootstrap and no node_modules, and fakes of npm, Redis and nats-server. */
function fakeMachine(name: string, sleep: number) {
  const root = join(work, name);
  const bin = join(root, "fake-bin");
  mkdirSync(bin, { recursive: true });
  cpSync(join(ROOT, "scripts", "bootstrap.mjs"), join(root, "scripts", "bootstrap.mjs"));
  cpSync(join(ROOT, "scripts", "setup"), join(root, "scripts", "setup"), { recursive: true });
  // What npm install leaves: a Bun that prints what the bootstrap handed it.
  script(
    join(bin, "fake-bun"),
    '[ "$1" = --version ] && { echo 1.4.5; exit 0; }\necho "bun $* REDIS=$REDIS_SERVER_BIN NATS=$NATS_SERVER_BIN"',
  );
  script(join(bin, "npm"), `sleep ${sleep}\nmkdir -p node_modules/.bin\ncp "${bin}/fake-bun" node_modules/.bin/bun`);
  script(join(bin, "redis-server"), `sleep ${sleep}\necho "Redis server v=8.0.6 sha=00000000:0 malloc=libc bits=64"`);
  script(join(bin, "redis-cli"), "exit 0");
  script(join(bin, "nats-server"), `sleep ${sleep}\necho "nats-server: v2.10.27"`);
  const env: Record<string, string> = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: root,
    MEMORY_SERVICE_CACHE: join(root, "cache"),
    EMBEDDINGS_BLAS: "off",
    EMBEDDINGS_KERNEL: "",
    BOOTSTRAP_TEST_MARK: mark.split("=")[1],
  };
  return { root, bin, env };
}

test("a first start finds Redis and nats-server while npm installs, not after", async () => {
  const { root, bin, env } = fakeMachine("overlap", SLEEP);
  const started = performance.now();
  const run = Bun.spawnSync([NODE, join(root, "scripts", "bootstrap.mjs"), "start.ts"], { cwd: root, env });
  const seconds = (performance.now() - started) / 1000;
  const out = run.stdout.toString();
  expect(run.exitCode, run.stderr.toString()).toBe(0);
  expect(out).toContain(`bun start.ts REDIS=${bin}/redis-server NATS=${bin}/nats-server`);
  // One after another, the three take at least 3 × SLEEP; side by side, little more than one.
  expect(seconds).toBeLessThan(2 * SLEEP);
}, 30_000);

test("a signal during the set-up stops its background steps too", async () => {
  const { root, env } = fakeMachine("signal", 60);
  const boot = Bun.spawn([NODE, join(root, "scripts", "bootstrap.mjs"), "start.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "ignore"],
  });
  // npm, Redis's and NATS's look-ups, each under its own process: all are running once 4 sleeps are.
  for (let i = 0; i < 100 && processesMarked().length < 8; i++) await Bun.sleep(50);
  expect(processesMarked().length).toBeGreaterThanOrEqual(8);
  boot.kill("SIGTERM");
  expect(await boot.exited).toBe(128 + 15);
  let left = processesMarked();
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await Bun.sleep(100);
    left = processesMarked();
  }
  expect(left).toEqual([]);
}, 30_000);
