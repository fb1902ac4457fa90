import { mkdirSync, readFileSync, existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";

/**
 * `npm test`: runs bun's test runner with a JUnit report, then prints the one summary line CI reads,
 * computed from that report: `N passed, N failed, N skipped`.
 * - No paths: the whole suite on single-node Redis and NATS, then the data-path folders again on a
 *   Redis Cluster and a 3-node NATS cluster (CLUSTER_FOLDERS, TEST_CLUSTER=1 in test/harness.ts).
 * - Paths: those only. `--cluster` (`npm run test:cluster`): everything asked for runs on the clusters.
 */
const CLUSTER_FOLDERS = ["test/memories", "test/tags", "test/search", "test/keys"];

const reportDir = resolve(".data-test");
mkdirSync(reportDir, { recursive: true });
const argv = process.argv.slice(2);
const onCluster = argv.includes("--cluster") || process.env.TEST_CLUSTER === "1";
const args = argv.filter((a) => a !== "--cluster");
const paths = args.filter((a) => !a.startsWith("-"));

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** What failed, repeated at the end of the output: CI keeps only the output's tail. */
const failures: string[] = [];

const attr = (tag: string, name: string) =>
  (tag.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1] ?? "").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

async function run(name: string, testArgs: string[], cluster: boolean): Promise<Counts> {
  const report = resolve(reportDir, `${name}.xml`);
  rmSync(report, { force: true });
  const proc = Bun.spawn(
    [process.execPath, "test", "--timeout=60000", "--reporter=junit", `--reporter-outfile=${report}`, ...testArgs],
    {
      stdio: ["inherit", "inherit", "inherit"],
      env: { ...process.env, TEST_DATA_ROOT: reportDir, TEST_CLUSTER: cluster ? "1" : "" },
    },
  );
  const code = await proc.exited;
  if (!existsSync(report)) {
    console.log(`${name}: no JUnit report was written`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  const xml = readFileSync(report, "utf8");
  const cases = xml.match(/<testcase\b[^>]*?(\/>|>[\s\S]*?<\/testcase>)/g) ?? [];
  let failed = 0;
  let skipped = 0;
  for (const c of cases) {
    if (/<(failure|error)\b/.test(c)) {
      failed++;
      const open = c.slice(0, c.indexOf(">"));
      const where = [attr(open, "file"), attr(open, "classname"), attr(open, "name")].filter(Boolean);
      failures.push(`${name}: ${where.join(" > ")}`);
    } else if (/<skipped\b/.test(c)) skipped++;
  }
  // A crash outside any test (bun exits non-zero with no failing case) must not read as success.
  if (code !== 0 && failed === 0) {
    failed = 1;
    failures.push(`${name}: bun exited with code ${code} outside any test case`);
  }
  return { passed: cases.length - failed - skipped, failed, skipped };
}

const runs: Counts[] = [await run("junit", args, onCluster)];
if (paths.length === 0 && !onCluster) {
  const started = Date.now();
  const counts = await run("junit-cluster", [...args, ...CLUSTER_FOLDERS], true);
  console.log(
    `on a Redis Cluster and a NATS cluster (${CLUSTER_FOLDERS.join(", ")}): ` +
      `${counts.passed} passed, ${counts.failed} failed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  runs.push(counts);
}
const total = (k: keyof Counts) => runs.reduce((sum, r) => sum + r[k], 0);
if (failures.length > 0) console.log(`failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
const [passed, failed, skipped] = [total("passed"), total("failed"), total("skipped")];
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
