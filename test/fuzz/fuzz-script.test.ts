import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { runProcess } from "../process-helpers";

const ROOT = resolve(import.meta.dir, "../..");

// `npm run fuzz` starts a stack of its own with its own settings, which nothing else exercises.
test("the fuzz script starts its stack, fuzzes and reports no failures", async () => {
  const args = ["--count", "60", "--restricted", "30", "--imports", "5", "--seed", "5"];
  const { out, err, code } = await runProcess([process.execPath, "scripts/fuzz.ts", ...args], { cwd: ROOT });
  if (code !== 0) console.log(out.slice(-2000), err.slice(-2000));
  expect(code).toBe(0);
  expect(out).toContain("fuzzing 60 requests, seed 5");
  for (const kind of ["metadata", "subtree", "tags"])
    expect(out).toContain(`fuzzing 10 requests with a ${kind}-restricted token`);
  expect(out).toContain("importing 5 bodies twice each");
  expect(out).toContain("no failures");
}, 120_000);
