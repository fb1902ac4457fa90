import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The record of a stack that `npm start` runs, so operator commands find it without being told: the stack
 * writes `DATA_DIR/stack.json` (mode 600) once it is ready and removes it when it stops, and lists its DATA_DIR
 * in the checkout's `.data/stacks`, so a stack started with another DATA_DIR is found from the checkout too.
 * A record whose process is gone (the launcher was killed) is stale, told apart by its pid.
 */
export interface StackRecord {
  /** The `npm start` process (scripts/start.ts). */
  pid: number;
  started_at: string;
  data_dir: string;
  /** The gateway, e.g. http://127.0.0.1:3000. */
  base_url: string;
  redis_url: string;
  redis_cluster: boolean;
  nats_url: string;
  /** DATA_DIR/admin-key, or null when the stack's admin key came from BOOTSTRAP_ADMIN_KEY. */
  admin_key_file: string | null;
}

export const STACK_FILE = "stack.json";
/** The checkout this code runs from: its `.data` is where `npm start` keeps data unless DATA_DIR says otherwise. */
const CHECKOUT = resolve(import.meta.dir, "../..");
export const DEFAULT_DATA_DIR = join(CHECKOUT, ".data");
/** The checkout's list of the data directories `npm start` runs stacks with, one a line, the latest last. */
export const STACKS_LIST = join(DEFAULT_DATA_DIR, "stacks");

export function readStackRecord(dataDir: string): StackRecord | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, STACK_FILE), "utf8")) as StackRecord;
  } catch {
    return null;
  }
}

/** Signal 0 asks whether the pid exists; EPERM means it does, as another user's process. */
export function isRunning(record: StackRecord): boolean {
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

const listedDirs = (list: string): string[] =>
  existsSync(list)
    ? readFileSync(list, "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
    : [];

/** Writes the record of a ready stack and lists its data directory (dropping the entries of stopped stacks). */
export function writeStackRecord(record: StackRecord, list = STACKS_LIST): void {
  const file = join(record.data_dir, STACK_FILE);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  const live = listedDirs(list).filter((dir) => {
    const other = dir === record.data_dir ? null : readStackRecord(dir);
    return other !== null && isRunning(other);
  });
  mkdirSync(resolve(list, ".."), { recursive: true });
  writeFileSync(list, [...live, record.data_dir].map((d) => `${d}\n`).join(""));
}

/** Removes a stopping stack's record and its line in the list; another stack's record is left alone. */
export function removeStackRecord(dataDir: string, pid = process.pid, list = STACKS_LIST): void {
  if (readStackRecord(dataDir)?.pid === pid) rmSync(join(dataDir, STACK_FILE), { force: true });
  const rest = listedDirs(list).filter((dir) => dir !== dataDir);
  if (rest.length > 0) writeFileSync(list, rest.map((d) => `${d}\n`).join(""));
  else rmSync(list, { force: true });
}

export interface FoundStack {
  /** The running stack: DATA_DIR's when set, else the one started last of the checkout's list and `.data`. */
  running: StackRecord | null;
  /** Recorded stacks whose process is gone (killed without a chance to remove their record). */
  stale: StackRecord[];
  /** How many stacks of the checkout are running (more than one: the latest is used). */
  runningCount: number;
}

/**
 * The stack an operator command talks to. DATA_DIR (relative to the working directory, as `npm start` takes
 * it) names one; without it, every stack listed by the checkout, plus its `.data`, is a candidate.
 */
export function findStack(
  env: Record<string, string | undefined> = process.env,
  { list = STACKS_LIST, defaultDir = DEFAULT_DATA_DIR } = {},
): FoundStack {
  const dirs = env.DATA_DIR ? [resolve(env.DATA_DIR)] : [...new Set([...listedDirs(list).reverse(), defaultDir])];
  const records = dirs.map(readStackRecord).filter((r): r is StackRecord => r !== null);
  const running = records.filter(isRunning);
  return {
    running: running[0] ?? null,
    stale: records.filter((r) => !running.includes(r)),
    runningCount: running.length,
  };
}
