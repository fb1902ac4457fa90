import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { freePort } from "../../scripts/stack/infra";
import { runProcess } from "../process-helpers";

/**
 * The operator commands of the README's table, typed as it shows them from the repository's root, against a
 * stack that `npm start` runs on a port and a data directory other than the defaults: they find it (its
 * gateway, Redis, NATS and admin key) with no variable set, and once it is stopped each says in one line what
 * to start or set.
 */
const ROOT = resolve(import.meta.dir, "../..");
const dataDir = mkdtempSync(join(tmpdir(), "ops-stack-"));
const work = mkdtempSync(join(tmpdir(), "ops-files-"));
const file = join(work, "data.ndjson");
let port = 0;
let npm: Subprocess | null = null;

/** Nothing that says where the stack is: the commands must find it themselves. */
const STACK_VARIABLES = [
  "PORT",
  "DATA_DIR",
  "REDIS_URL",
  "REDIS_CLUSTER",
  "NATS_URL",
  "MEMORY_SERVICE_URL",
  "MEMORY_SERVICE_API_KEY",
  "BOOTSTRAP_ADMIN_KEY",
];
const plainEnv = (extra: Record<string, string> = {}) => {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  for (const name of STACK_VARIABLES) if (!(name in extra)) delete env[name];
  return env;
};

/** `npm run <script> -- <args>` from the repository's root, as the README's table shows it. */
const npmRun = (script: string, args: string[] = [], extra: Record<string, string> = {}) =>
  runProcess(["npm", "run", script, ...(args.length > 0 ? ["--", ...args] : [])], {
    cwd: ROOT,
    env: plainEnv(extra),
  });

/** What the command itself said: npm's `> script` banner and blank lines left out. */
const said = (r: { out: string; err: string }) =>
  `${r.out}\n${r.err}`.split("\n").filter((line) => line.trim() !== "" && !line.startsWith(">"));

/** A failure is one line saying what to do: no stack frames, no second line, a non-zero exit code. */
function expectOneLine(r: { out: string; err: string; code: number }, pattern: RegExp) {
  const lines = said(r);
  expect({ code: r.code === 0 ? 0 : "not 0", lines }).toEqual({
    code: "not 0",
    lines: [expect.stringMatching(pattern)],
  });
}

/** Pids of live processes started for this data dir (every one inherits DATA_DIR). */
function processesOfThisStack(): number[] {
  const mark = `DATA_DIR=${dataDir}`;
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      if (/\) Z /.test(readFileSync(`/proc/${entry}/stat`, "utf8"))) return [];
      return readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(mark) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

beforeAll(async () => {
  port = await freePort();
  const output = Bun.file(join(dataDir, "npm-start.out"));
  npm = Bun.spawn(["npm", "start", "--silent"], {
    cwd: ROOT,
    env: { ...plainEnv(), DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" },
    stdout: output,
    stderr: output,
  });
  let ready = false;
  for (let i = 0; i < 180 && !ready && npm.exitCode === null; i++) {
    ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await Bun.sleep(250);
  }
  if (!ready) throw new Error(`npm start did not get ready:\n${(await output.text()).slice(-3000)}`);
}, 60_000);

afterAll(() => {
  for (const pid of processesOfThisStack()) process.kill(pid, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("operator commands find the stack `npm start` runs", () => {
  test("keys, storage, reindex, export and import need no variable, on another PORT and DATA_DIR", async () => {
    const key = readFileSync(join(dataDir, "admin-key"), "utf8").trim();
    const created = await fetch(`http://127.0.0.1:${port}/v1/memories`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content: "found by the operator commands" }),
    });
    expect(created.status).toBe(200);
    // A search gives the tenant its search index, which a plain `npm run reindex` rebuilds.
    const searched = await fetch(`http://127.0.0.1:${port}/v1/search`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ query: "operator" }),
    });
    expect(searched.status).toBe(200);

    const keys = await npmRun("keys", ["list"]);
    expect(keys.code).toBe(0);
    const listed = JSON.parse(keys.out.slice(keys.out.indexOf("["))) as { tenant_id: string }[];
    expect(listed.map((k) => k.tenant_id)).toContain("default");

    const storage = await npmRun("storage", ["top"]);
    expect(storage.code).toBe(0);
    expect(storage.out).toContain("default\tlive\t1 memories");

    const reindex = await npmRun("reindex");
    expect(reindex.code).toBe(0);
    expect(reindex.err).toContain("default (live) 1 memories");

    const exported = await npmRun("export", ["--out", file]);
    expect(exported.code).toBe(0);
    expect(exported.err).toContain("with the admin key in");
    expect(readFileSync(file, "utf8")).toContain("found by the operator commands");

    const imported = await npmRun("import", [file]);
    expect(imported.code).toBe(0);
    expect(imported.out).toContain('"existing":{"tags":0,"entities":0,"memories":1}');

    const wrongKey = await npmRun("export", ["--out", file], { MEMORY_SERVICE_API_KEY: "svc_live_wrong" });
    expectOneLine(wrongKey, /^export: 401 .*MEMORY_SERVICE_API_KEY/);
    const noRedis = await npmRun("storage", ["top"], { REDIS_URL: "redis://127.0.0.1:1" });
    expectOneLine(noRedis, /^Redis at redis:\/\/127\.0\.0\.1:1 does not answer.*REDIS_URL/);
  }, 60_000);

  test("once it is stopped, each command says in one line what to start", async () => {
    npm!.kill("SIGTERM");
    await npm!.exited;
    for (let i = 0; i < 40 && processesOfThisStack().length > 0; i++) await Bun.sleep(250);
    expect(existsSync(join(dataDir, "stack.json"))).toBe(false);
    if (!existsSync(file)) writeFileSync(file, "");
    const noStack = /^No running stack\b.*npm start/;
    expectOneLine(await npmRun("keys", ["list"]), noStack);
    expectOneLine(await npmRun("storage", ["top"]), noStack);
    expectOneLine(await npmRun("reindex"), noStack);
    expectOneLine(await npmRun("export", ["--out", file]), noStack);
    expectOneLine(await npmRun("import", [file]), noStack);
    // Its data directory named, the one line says how to start that one.
    expectOneLine(await npmRun("keys", ["list"], { DATA_DIR: dataDir }), /npm start/);
    // A gateway named but down: the same, about the gateway.
    const gone = await npmRun("export", ["--out", file], {
      MEMORY_SERVICE_URL: `http://127.0.0.1:${port}`,
      MEMORY_SERVICE_API_KEY: "svc_live_x",
    });
    expectOneLine(gone, /^No answer from http:\/\/127\.0\.0\.1:\d+.*MEMORY_SERVICE_URL/);
  }, 60_000);
});
