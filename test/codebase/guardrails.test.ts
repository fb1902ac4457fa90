import { expect, test } from "bun:test";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const bin = (name: string) => resolve(ROOT, "node_modules", ".bin", name);

/** Runs a tool from the repository root; its output is the failure message when it fails. */
async function runTool(cmd: string[]): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
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
