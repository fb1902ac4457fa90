import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runFuzz } from "../test/fuzz/fuzz";
import { runImportFuzz } from "../test/fuzz/import-fuzz";
import { RESTRICTION_KINDS } from "../test/fuzz/restricted";
import { startStack } from "./stack/launch";

/**
 * `npm run fuzz -- --count N --restricted R --imports M --seed S`: the fuzz tests' runs, longer, against a private
 * stack: N requests with a key, R requests with browser tokens (split over the restriction kinds, each checking that
 * nothing of another user changed or showed), then M NDJSON bodies imported twice each; exits 1 on a failure.
 */
const { values } = parseArgs({
  options: {
    count: { type: "string", default: "30000" },
    restricted: { type: "string" },
    imports: { type: "string", default: "300" },
    seed: { type: "string" },
  },
});
const count = Number(values.count);
const imports = Number(values.imports);
const restrictedCount = Number(values.restricted ?? values.count);
const seed = Number(values.seed ?? Date.now() % 2 ** 31);
const dataDir = mkdtempSync(join(tmpdir(), "fuzz-"));
// Limits high enough that the fuzzer's own pace never meets them, within what the gateway's config accepts.
const env = { LOG_LEVEL: "error", RATE_LIMIT_PER_MINUTE: "10000000", SIGNIN_ATTEMPTS_PER_MINUTE: "1000000" };
try {
  const stack = await startStack({ dataDir, env });
  try {
    console.log(`fuzzing ${count} requests, seed ${seed}`);
    const report = await runFuzz({
      baseUrl: stack.baseUrl,
      adminKey: stack.adminKey,
      count,
      seed,
      progress: (n) => console.log(`  ${n} sent`),
    });
    console.log(`statuses: ${JSON.stringify(report.statuses)} in ${(report.ms / 1000).toFixed(0)} s`);
    console.log(`keyed writes replayed: ${report.replayed}`);
    const failures = [...report.failures];
    for (const [i, kind] of RESTRICTION_KINDS.entries()) {
      const share =
        Math.floor(restrictedCount / RESTRICTION_KINDS.length) +
        (i === 0 ? restrictedCount % RESTRICTION_KINDS.length : 0);
      console.log(`fuzzing ${share} requests with a ${kind}-restricted token`);
      const run = await runFuzz({
        baseUrl: stack.baseUrl,
        adminKey: stack.adminKey,
        count: share,
        seed,
        restrict: kind,
      });
      console.log(`statuses: ${JSON.stringify(run.statuses)} in ${(run.ms / 1000).toFixed(0)} s`);
      failures.push(...run.failures);
    }
    console.log(`importing ${imports} bodies twice each`);
    const imported = await runImportFuzz({ baseUrl: stack.baseUrl, adminKey: stack.adminKey, count: imports, seed });
    console.log(
      `lines created ${imported.totals.created}, found existing ${imported.totals.existing}, failed ` +
        `${imported.totals.failed}`,
    );
    failures.push(...imported.failures);
    console.log(failures.length ? failures.join("\n") : "no failures");
    process.exitCode = failures.length ? 1 : 0;
  } finally {
    await stack.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
