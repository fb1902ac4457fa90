import { mkdirSync, readFileSync, existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";

/**
 * `npm test`: runs bun's test runner with a JUnit report, then prints the one summary line CI reads,
 * computed from that report: `N passed, N failed, N skipped`.
 */
const reportDir = resolve(".data-test");
mkdirSync(reportDir, { recursive: true });
const report = resolve(reportDir, "junit.xml");
rmSync(report, { force: true });
const args = process.argv.slice(2);
const proc = Bun.spawn(
  [process.execPath, "test", "--timeout=60000", "--reporter=junit", `--reporter-outfile=${report}`, ...args],
  {
    stdio: ["inherit", "inherit", "inherit"],
    env: { ...process.env, TEST_DATA_ROOT: reportDir },
  },
);
const code = await proc.exited;

if (!existsSync(report)) {
  console.log("0 passed, 1 failed (no JUnit report was written)");
  process.exit(code || 1);
}
const xml = readFileSync(report, "utf8");
const cases = xml.match(/<testcase\b[^>]*?(\/>|>[\s\S]*?<\/testcase>)/g) ?? [];
let failed = 0;
let skipped = 0;
for (const c of cases) {
  if (/<(failure|error)\b/.test(c)) failed++;
  else if (/<skipped\b/.test(c)) skipped++;
}
const passed = cases.length - failed - skipped;
// A crash outside any test (bun exits non-zero with no failing case) must not read as success.
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
