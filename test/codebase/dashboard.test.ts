import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { generate } from "@graphql-codegen/cli";
import config from "../../dashboard/codegen";

const ROOT = resolve(import.meta.dir, "../..");
const GENERATED = "dashboard/src/generated/";

const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .map((f) => join(dir, f));

// The browser code has its own tsconfig (DOM types, Preact's JSX), outside the root project's.
test("dashboard/ typechecks (tsc -p dashboard --noEmit)", async () => {
  const proc = Bun.spawn([join(ROOT, "node_modules/.bin/tsc"), "-p", "dashboard", "--noEmit"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(out).toBe("");
  expect(code).toBe(0);
}, 120_000);

test("the typed GraphQL documents match the schema files (regenerate: npm run dashboard:codegen)", async () => {
  const previous = process.cwd();
  process.chdir(ROOT);
  try {
    const files = (await generate({ ...config, silent: true, cwd: ROOT }, false)) as {
      filename: string;
      content: string;
    }[];
    expect(files.map((f) => f.filename).sort()).toEqual(filesUnder(GENERATED).sort());
    for (const f of files) expect(readFileSync(join(ROOT, f.filename), "utf8")).toBe(f.content);
  } finally {
    process.chdir(previous);
  }
}, 60_000);

// Preact renders strings as text; only these APIs would parse one as HTML (memory content, tag names…).
test("no browser code writes HTML from a string", () => {
  const html = /dangerouslySetInnerHTML|\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write/;
  const offenders = filesUnder("dashboard").filter((f) => html.test(readFileSync(join(ROOT, f), "utf8")));
  expect(offenders).toEqual([]);
});
