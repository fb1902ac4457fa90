import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { rmSync } from "node:fs";
import type { Stack } from "../../scripts/stack/launch";
import { newTenant } from "../api";
import { dataOf, exportLines, modIds, portTenant, seed } from "../portability/portability-helpers";
import { drillStack, newDataDir, runScript } from "./backup-helpers";

/**
 * The portable path, drilled like a backup: `npm run export` from one stack, `npm run import` into a stack that
 * has never seen the data (its own Redis and NATS). test/portability/cli.test.ts moves a tenant within one stack;
 * here nothing is shared but the file.
 */
const dir = newDataDir("drill-portable");
let fresh: Stack | null = null;

afterAll(async () => {
  await fresh?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("npm run export → npm run import into a fresh stack", () => {
  test("the same memories, tags, entities, links and occurred_at", async () => {
    const source = await portTenant();
    await seed(source.api);
    fresh = await drillStack(join(dir, "stack"));
    const file = join(dir, "tenant.ndjson");
    const from = { MEMORY_SERVICE_URL: source.baseUrl, MEMORY_SERVICE_API_KEY: source.key };
    const exported = await runScript("scripts/portability.ts", ["export", "--out", file], from);
    expect(exported.code).toBe(0);

    const target = await newTenant(fresh.baseUrl, fresh.adminKey);
    const to = { MEMORY_SERVICE_URL: fresh.baseUrl, MEMORY_SERVICE_API_KEY: target.key };
    const imported = await runScript("scripts/portability.ts", ["import", file], to);
    expect({ code: imported.code, out: imported.out }).toMatchObject({
      code: 0,
      out: expect.stringContaining('"created":{"tags":2,"entities":2,"memories":9}'),
    });

    const before = await exportLines(source.baseUrl, source.key);
    const after = await exportLines(fresh.baseUrl, target.key);
    expect(modIds(after)).toEqual(modIds(before));
    // occurred_at and the threads' shape, stated outright rather than left inside the comparison.
    const turns = (lines: any[]) =>
      dataOf(lines)
        .filter((r) => r.type === "memory" && r.content.startsWith("turn "))
        .map((r) => [r.content, r.occurred_at, r.tags, r.entities]);
    expect(turns(after)).toEqual(turns(before));
    expect(turns(after)[0]).toEqual([
      "turn 0",
      "2024-01-01T00:01:00.000Z",
      ["blue", "Red"],
      [{ type: "person", name: "Ann" }],
    ]);
  }, 90_000);
});
