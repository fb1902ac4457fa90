import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { runProcess } from "../process-helpers";

const ROOT = resolve(import.meta.dir, "../..");
const bin = (name: string) => resolve(ROOT, "node_modules", ".bin", name);

/** Runs a tool from the repository root; its output is the failure message when it fails. */
async function runTool(cmd: string[]): Promise<{ code: number; output: string }> {
  const { out, err, code } = await runProcess(cmd, { cwd: ROOT });
  return { code, output: `${out}${err}`.trim().split("\n").slice(-40).join("\n") };
}

// Bun runs TypeScript without checking its types, so nothing else keeps them right.
test("the whole tree typechecks (tsc --noEmit)", async () => {
  const { code, output } = await runTool([bin("tsc"), "-p", ".", "--noEmit"]);
  expect(output).toBe("");
  expect(code).toBe(0);
}, 120_000);

test("every file is formatted as biome.json says (fix with: npx biome format --write .)", async () => {
  const { code, output } = await runTool([bin("biome"), "format", ".", "--max-diagnostics=5"]);
  if (code !== 0) console.log(output);
  expect(code).toBe(0);
}, 60_000);

// Biome wraps code at 120 columns but not long strings, comments, template literals or regexes.
test("no line of code is longer than 120 characters", async () => {
  const git = Bun.spawn(["git", "ls-files", "-z", "*.ts", "*.tsx", "*.mjs"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "inherit",
  });
  const [listed, code] = await Promise.all([new Response(git.stdout).text(), git.exited]);
  expect(code).toBe(0);
  // Generated code is the generator's to format.
  const files = listed.split("\0").filter((f) => f && !f.includes("/generated/"));
  expect(files.length).toBeGreaterThan(0);
  const offenders: string[] = [];
  for (const file of files) {
    const lines = (await Bun.file(resolve(ROOT, file)).text()).split("\n");
    lines.forEach((line, i) => {
      const length = [...line].length;
      if (length > 120) offenders.push(`${file}:${i + 1} (${length} characters)`);
    });
  }
  expect(offenders).toEqual([]);
}, 60_000);

// Small files, one idea each. Only Python is held to it so far: several TypeScript files are past 300 lines.
test("no hand-written Python file is longer than 300 lines", async () => {
  const git = Bun.spawn(["git", "ls-files", "-z", "*.py"], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const [listed, code] = await Promise.all([new Response(git.stdout).text(), git.exited]);
  expect(code).toBe(0);
  // Generated code is the generator's to size.
  const files = listed.split("\0").filter((f) => f && !f.includes("/generated/"));
  expect(files.length).toBeGreaterThan(0);
  const offenders: string[] = [];
  for (const file of files) {
    const lines = (await Bun.file(resolve(ROOT, file)).text()).split("\n").length - 1;
    if (lines > 300) offenders.push(`${file} (${lines} lines)`);
  }
  expect(offenders).toEqual([]);
}, 60_000);
