import { expect, test } from "bun:test";
import { buildWebAssets } from "./build";

test("every page's files are built, named by content, and the same sources give the same names", async () => {
  const [a, b] = [await buildWebAssets(), await buildWebAssets()];
  expect([...a.files.keys()].sort()).toEqual([...b.files.keys()].sort());
  for (const [name, pageAssets] of Object.entries(a.pages)) {
    expect({ name, scripts: pageAssets.scripts.length > 0 }).toEqual({ name, scripts: true });
    for (const file of [...pageAssets.scripts, ...pageAssets.styles]) {
      expect(file).toMatch(/^[a-z]+(-[a-z]+)?-[a-z0-9]+\.(js|css)$/);
      expect(a.files.has(file)).toBe(true);
    }
  }
  expect(a.pages.docs.scripts[0]).toMatch(/^scalar-/);
  // Production builds: React's development-only warnings are not in them.
  const graphiql = Buffer.from(a.files.get(a.pages.graphiql.scripts[0]!)!.body).toString();
  expect(graphiql).not.toContain("Each child in a list should have a unique");
}, 60_000);
