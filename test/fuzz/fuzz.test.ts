import { expect, test } from "bun:test";
import { testStack } from "../harness";
import { runFuzz } from "./fuzz";

// A bounded, repeatable run for CI; `npm run fuzz -- --count N --seed S` runs longer.
test("3,000 generated requests: no 5xx, the envelope with a request id on every answer, nothing stored by a " +
  "refusal, keyed writes replayed byte for byte", async () => {
  const stack = await testStack();
  const report = await runFuzz({ baseUrl: stack.baseUrl, adminKey: stack.adminKey, count: 3_000, seed: 20261123 });
  if (report.failures.length) console.log(report.failures.slice(0, 20).join("\n"));
  expect(report.failures).toEqual([]);
  expect(Object.values(report.statuses).reduce((a, b) => a + b, 0)).toBe(3_000);
  // The replay check ran: some keyed writes succeeded and were sent again.
  expect(report.replayed).toBeGreaterThan(10);
}, 600_000);
