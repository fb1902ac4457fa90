import { expect, test } from "bun:test";
import { testStack } from "../harness";
import { runImportFuzz } from "./import-fuzz";

// A bounded, repeatable run for CI; each body is imported twice into the same tenant.
test("150 generated NDJSON bodies imported twice: every line accounted for once, the tenant grows by exactly " +
  "what is reported created, a second import creates nothing the first did", async () => {
  const stack = await testStack();
  const { failures, totals } = await runImportFuzz({
    baseUrl: stack.baseUrl,
    adminKey: stack.adminKey,
    count: 150,
    seed: 20261124,
  });
  if (failures.length) console.log(failures.slice(0, 10).join("\n"));
  expect(failures).toEqual([]);
  // The bodies reach every outcome: records created, found existing when sent again, and lines refused.
  expect(totals.created).toBeGreaterThan(20);
  expect(totals.existing).toBeGreaterThan(20);
  expect(totals.failed).toBeGreaterThan(50);
}, 600_000);
