import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Redis from "ioredis";
import type { Stack } from "../../scripts/stack/launch";
import { startStack } from "../../scripts/stack/launch";
import { newTenant } from "../api";
import { newDataDir, runScript } from "./backup-helpers";

/**
 * `npm run migrate` against a running stack whose services leave migrations to it (MIGRATION_AUTO=false): it says
 * where the data is, does nothing on the current layout, counts without writing on --dry-run, migrates a keyspace
 * of the layout before (a long memory written whole gets its vectors per chunk), and refuses a newer layout.
 */
let stack: Stack;
let redis: Redis;
let tenant: string;
const migrate = (args: string[] = []) =>
  runScript("services/data-layout/cli/migrate.ts", args, { REDIS_URL: stack.redisUrl, NATS_URL: stack.natsUrl });
const vectors = async () => Number(await redis.call("VCARD", `s:{${tenant}:live}:v:use-lite-512`));
const LONG = "Each pallet in the warehouse carries a label with its aisle and shelf. ".repeat(300);

beforeAll(async () => {
  stack = await startStack({
    dataDir: newDataDir("migrate"),
    env: { LOG_LEVEL: "warn", MIGRATION_AUTO: "false", RATE_LIMIT_PER_MINUTE: "100000" },
  });
  redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: 1 });
  const t = await newTenant(stack.baseUrl, stack.adminKey);
  tenant = t.tenant;
  // The keyspace as the release before left it: layout 2, a long memory with one vector.
  await redis.set("layout:version", "2");
  await Bun.sleep(2500); // the search replica reads the layout every 2 s (data-layout/layout-view.ts)
  expect((await t.api.post("/v1/memories", { content: LONG })).status).toBe(200);
  expect(await vectors()).toBe(1);
}, 120_000);

afterAll(async () => {
  redis?.disconnect();
  await stack?.stop();
}, 60_000);

describe("npm run migrate", () => {
  test("--dry-run lists the pending step and what it would change, and writes nothing", async () => {
    const r = await migrate(["--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("data layout: 2\nthis release: layout 3\n");
    expect(r.out).toContain("2 → 3  search-chunked-vectors (search): every search index rebuilt");
    expect(r.out).toContain("search-chunked-vectors: would change 1 of 1\n");
    expect(r.out).toContain("dry run: nothing written; layout stays 2");
    expect(await redis.get("layout:version")).toBe("2");
    expect(await vectors()).toBe(1);
  }, 60_000);

  test("migrates: the long memory gets a vector per chunk, and the layout becomes 3", async () => {
    const r = await migrate(["--pause-ms", "0"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("search-chunked-vectors: 1 seen, 1 changed\n");
    expect(r.out).toContain("data layout: 3\n");
    expect(await redis.get("layout:version")).toBe("3");
    expect(await redis.exists("layout:migration")).toBe(0);
    expect(await vectors()).toBeGreaterThan(5);
    const again = await migrate();
    expect([again.code, again.out]).toEqual([0, "data layout: 3\nthis release: layout 3\nnothing to migrate\n"]);
  }, 120_000);

  test("refuses a newer layout in one line", async () => {
    await redis.set("layout:version", "4");
    try {
      const r = await migrate();
      expect(r.code).toBe(1);
      expect(r.err.trim().split("\n")).toEqual([expect.stringContaining("layout 4, newer than this release's 3")]);
    } finally {
      await redis.set("layout:version", "3");
    }
  }, 60_000);
});
