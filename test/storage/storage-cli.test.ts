import { afterAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { stackRedis, testStack } from "../harness";
import { newTenant } from "../api";
import { runProcess } from "../process-helpers";
import { createStorageStore } from "../../services/memories/storage";

const ROOT = resolve(import.meta.dir, "../..");
const stack = await testStack();
const redis = stackRedis(stack);
afterAll(() => redis.disconnect());

/** `npm run storage -- <args>` against the test stack's Redis. */
const storageCli = (...args: string[]) =>
  runProcess([process.execPath, "services/memories/cli/storage.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: stack.redisUrl },
  });

test("storage CLI: `recount` finds the counters right, `--fix` repairs a drift, `top` lists the space", async () => {
  const { tenant, api } = await newTenant(stack.baseUrl, stack.adminKey);
  for (const content of ["first memory", "second memory, longer"])
    expect((await api.post("/v1/memories", { content, metadata: { n: 1 } })).status).toBe(200);

  const right = await storageCli("recount", "--tenant", tenant);
  expect(right.code).toBe(0);
  const counters = /counters: 2 memories, (\d+) bytes/.exec(right.out);
  expect(counters).not.toBeNull();
  expect(right.out).toContain(`recount:  2 memories, ${counters![1]} bytes`);

  await createStorageStore(redis).setCount({ tenant, env: "live" }, { memories: 7, bytes: 1 });
  const drift = await storageCli("recount", "--tenant", tenant);
  expect(drift.code).toBe(1);
  expect(drift.out).toContain("counters: 7 memories, 1 bytes");
  expect(drift.out).toContain("the counters differ (--fix writes the recount)");

  const fixed = await storageCli("recount", "--tenant", tenant, "--fix");
  expect(fixed.code).toBe(0);
  expect(fixed.out).toContain("counters set to the recount");
  const after = await storageCli("recount", "--tenant", tenant);
  expect(after.code).toBe(0);
  expect(after.out).toContain(`counters: 2 memories, ${counters![1]} bytes`);

  const top = await storageCli("top", "--limit", "100000");
  expect(top.code).toBe(0);
  expect(top.out).toContain(`${tenant}\tlive\t2 memories\t${counters![1]} bytes`);
}, 60_000);

test("storage CLI: a command it does not know gets the usage and exit code 2", async () => {
  const { code, err } = await storageCli("recount");
  expect(code).toBe(2);
  expect(err).toContain("usage: bun run storage recount --tenant <id>");
});
