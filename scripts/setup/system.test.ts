import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureSystem } from "./system.mjs";

/** Stub steps that record which ran. */
function recording() {
  const ran: string[] = [];
  const steps = {
    ensureOpenBlas: () => void ran.push("openblas"),
    ensureDenseKernel: () => {
      ran.push("kernel");
      return "/cache/dense.so";
    },
    ensureChromium: () => {
      ran.push("chromium");
      return true;
    },
    ensurePythonPackages: () => {
      ran.push("python");
      return true;
    },
  };
  return { ran, steps };
}

test("the system step installs Chromium and the Python packages only for runs that need them", () => {
  const all = recording();
  expect(ensureSystem({ root: "/r", cacheDir: "/c", browser: true, python: true }, all.steps)).toEqual({
    kernel: "/cache/dense.so",
  });
  expect(all.ran).toEqual(["openblas", "kernel", "chromium", "python"]);
  const none = recording();
  ensureSystem({ root: "/r", cacheDir: "/c", browser: false, python: false }, none.steps);
  expect(none.ran).toEqual(["openblas", "kernel"]);
});

test("the bootstrap asks the system step for the Python packages when the run includes test/python", () => {
  // A fresh machine has none of them: without this, npm test failed every Python SDK test there.
  const bootstrap = readFileSync(join(import.meta.dir, "..", "bootstrap.mjs"), "utf8");
  expect(bootstrap).toMatch(/const python = runsPythonTests\(args\[0\], args\.slice\(1\)\);/);
  expect(bootstrap).toMatch(/"ensureSystem", \{[^}]*\bpython\b[^}]*\}/);
});
