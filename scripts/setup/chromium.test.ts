import { expect, test } from "bun:test";
import { CHROMIUM_MISSING, ensureChromium, runsBrowserTests } from "./chromium.mjs";
import { withEnv } from "./env.fixture";

test("only a test run that includes test/browser asks for Chromium; npm start never does", () => {
  expect(runsBrowserTests("scripts/test.ts", [])).toBe(true);
  expect(runsBrowserTests("scripts/test.ts", ["--bail"])).toBe(true);
  expect(runsBrowserTests("scripts/test.ts", ["test"])).toBe(true);
  expect(runsBrowserTests("scripts/test.ts", ["./test/"])).toBe(true);
  expect(runsBrowserTests("scripts/test.ts", ["test/browser/docs.test.ts"])).toBe(true);
  expect(runsBrowserTests("scripts/test.ts", ["test/gateway", "test/browser"])).toBe(true);
  expect(runsBrowserTests("scripts/test.ts", ["test/gateway", "test/graphql"])).toBe(false);
  expect(runsBrowserTests("scripts/test.ts", ["test/browse"])).toBe(false);
  expect(runsBrowserTests("scripts/start.ts", [])).toBe(false);
});

test("Chromium already there: nothing is installed and nothing is printed", () => {
  let asked = 0;
  const installer = () => (asked++, null);
  const { result, lines } = withEnv({}, () => ensureChromium({ bin: process.execPath, installer }));
  expect(result).toBe(true);
  expect(asked).toBe(0);
  expect(lines).toEqual([]);
});

test("missing and no way to install it (not root, no sudo): one line says how", () => {
  const { result, lines } = withEnv({}, () => ensureChromium({ bin: "/nonexistent/chromium", installer: () => null }));
  expect(result).toBe(false);
  expect(lines).toEqual([`bootstrap: ${CHROMIUM_MISSING}`]);
});

test("a failed apt-get names its error and how to install by hand", () => {
  const out = "Reading package lists...\nE: Unable to locate package chromium\n";
  const { result, lines } = withEnv({}, () =>
    ensureChromium({ bin: "/nonexistent/chromium", installer: () => () => ({ ok: false, out }) }),
  );
  expect(result).toBe(false);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe(
    `bootstrap: apt-get install chromium failed (E: Unable to locate package chromium); ${CHROMIUM_MISSING}`,
  );
});
