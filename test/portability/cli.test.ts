import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataOf, exportLines, modIds, portTenant, seed } from "./portability-helpers";

/** `bun scripts/portability.ts …` as `npm run export` / `npm run import` run it, against the test stack. */
async function cli(args: string[], baseUrl: string, key: string) {
  const proc = Bun.spawn([process.execPath, "scripts/portability.ts", ...args], {
    env: { ...process.env, MEMORY_SERVICE_URL: baseUrl, MEMORY_SERVICE_API_KEY: key },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

describe("npm run export / npm run import", () => {
  test("export to a file, import it in parts into a fresh tenant: the same data, progress on stderr", async () => {
    const source = await portTenant();
    await seed(source.api);
    const dir = mkdtempSync(join(tmpdir(), "port-"));
    const file = join(dir, "data.ndjson");
    const exported = await cli(["export", "--out", file], source.baseUrl, source.key);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain("export 9 memories");
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(dataOf(lines)).toEqual(dataOf(await exportLines(source.baseUrl, source.key)));

    const target = await portTenant();
    // Parts of ~1 KiB: several POSTs, whose line numbers the CLI makes the file's.
    writeFileSync(file, `${readFileSync(file, "utf8")}{broken\n`);
    const imported = await cli(["import", file, "--part-bytes", "1024"], target.baseUrl, target.key);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain("import [");
    const report = JSON.parse(imported.stdout);
    expect(report).toMatchObject({ created: { tags: 2, entities: 2, memories: 9 }, failed: 1 });
    expect(report.errors).toEqual([
      expect.objectContaining({
        line: lines.length + 1,
        code: "VALIDATION_ERROR",
        message: "The line is not valid JSON",
      }),
    ]);
    expect(modIds(await exportLines(target.baseUrl, target.key))).toEqual(modIds(lines));
  });

  test("without a key it says what to set", async () => {
    const r = await cli(["export"], "http://127.0.0.1:9", "");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("MEMORY_SERVICE_API_KEY");
  });
});
