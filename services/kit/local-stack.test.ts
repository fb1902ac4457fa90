import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findStack, removeStackRecord, STACK_FILE, type StackRecord, writeStackRecord } from "./local-stack";

const root = mkdtempSync(join(tmpdir(), "local-stack-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function stackIn(pid: number): StackRecord {
  const dataDir = join(root, `stack-${++n}`);
  mkdirSync(dataDir);
  return {
    pid,
    started_at: new Date().toISOString(),
    data_dir: dataDir,
    base_url: `http://127.0.0.1:${3000 + n}`,
    redis_url: "redis://127.0.0.1:6379",
    redis_cluster: false,
    nats_url: "nats://127.0.0.1:4222",
    admin_key_file: join(dataDir, "admin-key"),
  };
}
/** A pid that was just in use and is not any more. */
const deadPid = () => Bun.spawnSync(["true"]).pid;

test("the latest running stack is found; a killed one's record is stale; a stop leaves the list", () => {
  const list = join(root, "list-1", "stacks");
  const defaultDir = join(root, "no-default");
  const first = stackIn(process.pid);
  const second = stackIn(process.pid);
  const killed = stackIn(deadPid());
  for (const r of [first, second, killed]) writeStackRecord(r, list);
  expect(statSync(join(first.data_dir, STACK_FILE)).mode & 0o777).toBe(0o600);

  const found = findStack({}, { list, defaultDir });
  expect(found.running?.data_dir).toBe(second.data_dir);
  expect(found.runningCount).toBe(2);
  expect(found.stale.map((r) => r.data_dir)).toEqual([killed.data_dir]);
  // DATA_DIR names one stack: only that one is looked at.
  expect(findStack({ DATA_DIR: first.data_dir }, { list, defaultDir }).running?.data_dir).toBe(first.data_dir);
  expect(findStack({ DATA_DIR: killed.data_dir }, { list, defaultDir })).toMatchObject({ running: null });

  removeStackRecord(second.data_dir, process.pid, list);
  expect(existsSync(join(second.data_dir, STACK_FILE))).toBe(false);
  expect(findStack({}, { list, defaultDir }).running?.data_dir).toBe(first.data_dir);
  // A record rewritten by another process of the same data directory is not this one's to remove.
  removeStackRecord(first.data_dir, deadPid(), list);
  expect(existsSync(join(first.data_dir, STACK_FILE))).toBe(true);
  // A new stack's line drops the lines of stacks no longer running.
  writeStackRecord(stackIn(process.pid), list);
  expect(readFileSync(list, "utf8")).not.toContain(killed.data_dir);
});

test("with no list, the default data directory's record is the stack; with nothing running, none is", () => {
  const list = join(root, "list-2", "stacks");
  const own = stackIn(process.pid);
  writeStackRecord(own, list);
  rmSync(list);
  expect(findStack({}, { list, defaultDir: own.data_dir }).running?.data_dir).toBe(own.data_dir);
  removeStackRecord(own.data_dir, process.pid, list);
  expect(findStack({}, { list, defaultDir: own.data_dir })).toEqual({ running: null, stale: [], runningCount: 0 });
  expect(existsSync(list)).toBe(false);
});
