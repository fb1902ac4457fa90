import { expect, test } from "bun:test";
import { testStack } from "../harness";
import { runFuzz } from "./fuzz";
import { RESTRICTION_KINDS } from "./restricted";

// Bounded, repeatable runs for CI; `npm run fuzz -- --count N` runs longer, restricted runs included.
test.each(RESTRICTION_KINDS)(
  "a %s-restricted token's 800 generated requests: no 5xx, and nothing of another user changed or shown",
  async (kind) => {
    const stack = await testStack();
    const report = await runFuzz({
      baseUrl: stack.baseUrl,
      adminKey: stack.adminKey,
      count: 800,
      seed: 20261127,
      restrict: kind,
    });
    if (report.failures.length) console.log(report.failures.slice(0, 20).join("\n"));
    expect(report.failures).toEqual([]);
    expect(Object.values(report.statuses).reduce((a, b) => a + b, 0)).toBe(800);
    // The aimed requests reached the data: some of the token's writes succeeded.
    expect(report.statuses["200"] ?? 0).toBeGreaterThan(100);
  },
  300_000,
);
