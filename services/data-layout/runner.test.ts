import { beforeEach, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import { createLogger } from "../kit/log";
import { checkLayoutAtStart, LAYOUT_EXIT_CODE } from "./check";
import { LAYOUT_KEYS } from "./keys";
import { CURRENT_LAYOUT, LayoutTooNewError, UNVERSIONED_LAYOUT } from "./layout";
import { MIGRATIONS, pendingSteps } from "./registry";
import { runMigrations, type RunOptions } from "./runner";
import type { MigrationStep } from "./step";
import { createLayoutStore, type LayoutStore } from "./store";

/**
 * The runner against a real Redis, with a step over test keys: a record `rec:<i>` of layout N holds `name`; of
 * N + 1 also `folded` (its lower case). Its cursor is the next record's index.
 */
const db = privateRedis("data-layout");
let redis: Redis;
let store: LayoutStore;
const log = createLogger({ test: "data-layout" }, "error");
const RECORDS = 25;

const foldStep = (calls: number[], opts: { hangAt?: number } = {}): MigrationStep => ({
  from: CURRENT_LAYOUT - 1,
  name: "fold-names",
  summary: "every record gets its folded name",
  settleMs: 0,
  async batch(cursor, size, { dryRun }) {
    const start = Number(cursor);
    if (opts.hangAt !== undefined && calls.length === opts.hangAt) await new Promise(() => {});
    calls.push(start);
    let changed = 0;
    const end = Math.min(RECORDS, start + size);
    for (let i = start; i < end; i++) {
      const name = await redis.hget(`rec:${i}`, "name");
      if (name === null || (await redis.hget(`rec:${i}`, "folded")) === name.toLowerCase()) continue;
      changed++;
      if (!dryRun) await redis.hset(`rec:${i}`, "folded", name.toLowerCase());
    }
    return { cursor: end >= RECORDS ? "0" : String(end), seen: end - start, changed };
  },
});
const options = (over: Partial<RunOptions> = {}): RunOptions => ({ batchSize: 4, pauseMs: 0, log, ...over });

/** Every key and its value, to compare whole keyspaces. */
async function dump(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of (await redis.keys("*")).sort())
    out[key] = (await redis.type(key)) === "hash" ? await redis.hgetall(key) : await redis.get(key);
  return out;
}

beforeEach(async () => {
  redis ??= await db.connect();
  store = createLayoutStore(redis);
  await redis.flushall();
});

const fillPrevious = async () => {
  for (let i = 0; i < RECORDS; i++) await redis.hset(`rec:${i}`, "name", `Name ${i}`);
  await store.setVersion(CURRENT_LAYOUT - 1);
};

describe("the layout key", () => {
  test("an empty keyspace gets the current layout; data without the key, the last unversioned one", async () => {
    expect(await store.versionOrInit()).toBe(CURRENT_LAYOUT);
    await redis.flushall();
    await redis.set("apikey:root", "x");
    expect(await store.versionOrInit()).toBe(UNVERSIONED_LAYOUT);
    expect(await redis.get(LAYOUT_KEYS.version)).toBe(String(UNVERSIONED_LAYOUT));
  });

  test("a newer layout is refused: by the runner, and at a process's start with one line and exit 78", async () => {
    await store.setVersion(CURRENT_LAYOUT + 1);
    await expect(runMigrations(store, [], options())).rejects.toBeInstanceOf(LayoutTooNewError);
    const lines: string[] = [];
    const capture = { ...log, error: (m: string) => void lines.push(m) };
    const exit = ((code: number) => {
      throw new Error(`exit ${code}`);
    }) as (code: number) => never;
    await expect(checkLayoutAtStart(redis, capture, exit)).rejects.toThrow(`exit ${LAYOUT_EXIT_CODE}`);
    await Bun.sleep(10);
    expect(lines).toEqual([expect.stringContaining(`layout ${CURRENT_LAYOUT + 1}, newer than this release's`)]);
    expect(await redis.get(LAYOUT_KEYS.version)).toBe(String(CURRENT_LAYOUT + 1));
  });

  test("every layout from the unversioned one on has a registered step, and search implements them", async () => {
    const { searchMigrations } = await import("../search/migrations");
    const steps = searchMigrations(redis, {
      rebuild: async () => ({ status: "done", total: 0, indexed: 0, removed: 0 }),
    });
    expect(pendingSteps(UNVERSIONED_LAYOUT, steps).map((s) => s.from)).toEqual(
      MIGRATIONS.filter((m) => m.from >= UNVERSIONED_LAYOUT).map((m) => m.from),
    );
    expect(() => pendingSteps(UNVERSIONED_LAYOUT, [])).toThrow("is run by search");
  });
});

describe("running a migration", () => {
  test("converts every record in batches, then records the new layout and forgets its progress", async () => {
    await fillPrevious();
    const calls: number[] = [];
    const r = await runMigrations(store, [foldStep(calls)], options());
    expect(r).toMatchObject({ status: "migrated", from: CURRENT_LAYOUT - 1, to: CURRENT_LAYOUT });
    expect(r.steps).toEqual([{ name: "fold-names", seen: RECORDS, changed: RECORDS }]);
    expect(calls).toEqual([0, 4, 8, 12, 16, 20, 24]);
    expect(await redis.hget("rec:7", "folded")).toBe("name 7");
    expect(await store.version()).toBe(CURRENT_LAYOUT);
    expect(await store.progress()).toBeNull();
    expect(await store.locked()).toBe(false);
  });

  test("is idempotent: the step run twice leaves what one run leaves", async () => {
    await fillPrevious();
    await runMigrations(store, [foldStep([])], options());
    const once = await dump();
    await store.setVersion(CURRENT_LAYOUT - 1);
    const again = await runMigrations(store, [foldStep([])], options());
    expect(again.steps).toEqual([{ name: "fold-names", seen: RECORDS, changed: 0 }]);
    expect(await dump()).toEqual(once);
  });

  test("a dry run counts what would change and writes nothing", async () => {
    await fillPrevious();
    const before = await dump();
    const r = await runMigrations(store, [foldStep([])], options({ dryRun: true }));
    expect(r).toMatchObject({ status: "dry-run", steps: [{ name: "fold-names", seen: RECORDS, changed: RECORDS }] });
    expect(await dump()).toEqual(before);
  });

  test("a runner killed midway holds the lease until it expires; the next resumes from the saved cursor", async () => {
    await fillPrevious();
    const first: number[] = [];
    // Hangs in its third batch and is never awaited again: a process killed there.
    void runMigrations(store, [foldStep(first, { hangAt: 2 })], options({ leaseMs: 300 }));
    while (first.length < 2) await Bun.sleep(5);
    await Bun.sleep(20);
    expect(await store.progress()).toMatchObject({ step: "fold-names", cursor: "8", seen: 8, changed: 8 });
    const second: number[] = [];
    expect((await runMigrations(store, [foldStep(second)], options())).status).toBe("busy");
    await Bun.sleep(350);
    const r = await runMigrations(store, [foldStep(second)], options());
    expect(r.status).toBe("migrated");
    expect(second).toEqual([8, 12, 16, 20, 24]);
    expect(r.steps).toEqual([{ name: "fold-names", seen: RECORDS, changed: RECORDS }]);
    for (let i = 0; i < RECORDS; i++) expect(await redis.hget(`rec:${i}`, "folded")).toBe(`name ${i}`);
  });

  test("one runner at a time: a second one started beside it answers busy and changes nothing", async () => {
    await fillPrevious();
    const [a, b] = await Promise.all([
      runMigrations(store, [foldStep([])], options({ pauseMs: 20 })),
      runMigrations(store, [foldStep([])], options({ pauseMs: 20 })),
    ]);
    expect([a.status, b.status].sort()).toEqual(["busy", "migrated"]);
  });

  test("stopping between batches keeps the cursor for the next run", async () => {
    await fillPrevious();
    const calls: number[] = [];
    const r = await runMigrations(store, [foldStep(calls)], options({ stopped: () => calls.length >= 3 }));
    expect(r.status).toBe("stopped");
    expect(await store.version()).toBe(CURRENT_LAYOUT - 1);
    expect((await store.progress())?.cursor).toBe("12");
    const rest: number[] = [];
    await runMigrations(store, [foldStep(rest)], options());
    expect(rest).toEqual([12, 16, 20, 24]);
  });
});
