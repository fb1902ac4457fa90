// Debian's Chromium for the browser tests (test/browser/). Only a test run that includes them installs it: the
// stack itself never needs a browser.
import { existsSync } from "node:fs";
import { normalize } from "node:path";
import { lastError, log } from "./shell.mjs";
import { aptInstaller } from "./system-apt.mjs";

export const CHROMIUM_BIN = "/usr/bin/chromium";
export const CHROMIUM_MISSING =
  `${CHROMIUM_BIN} is missing; the browser tests need Debian's Chromium: ` +
  "apt-get install -y --no-install-recommends chromium (as root)";

const BROWSER_TESTS = "test/browser";

/**
 * Whether `bun <script> <args>` runs the browser tests: the test runner with no path (the whole suite) or a path
 * inside test/browser or above it. Flags are not paths.
 */
export function runsBrowserTests(script, args) {
  if (normalize(script) !== "scripts/test.ts") return false;
  const paths = args.filter((a) => !a.startsWith("-")).map((a) => normalize(a).replace(/\/$/, ""));
  if (paths.length === 0) return true;
  return paths.some((p) => p === "." || p.startsWith(BROWSER_TESTS) || `${BROWSER_TESTS}/`.startsWith(`${p}/`));
}

/**
 * Makes sure Chromium is at `bin`, installing Debian's package when it can (one `bootstrap:` line). Otherwise one
 * line says how to install it, and the browser tests fail with the same words.
 * @returns {boolean} whether Chromium is there
 */
export function ensureChromium({ bin = CHROMIUM_BIN, installer = aptInstaller } = {}) {
  if (existsSync(bin)) return true;
  const install = installer();
  if (!install) {
    log(CHROMIUM_MISSING);
    return false;
  }
  log("installing Chromium for the browser tests (apt-get install chromium)…");
  const r = install("chromium");
  if (r.ok && existsSync(bin)) return true;
  log(`apt-get install chromium failed (${lastError(r.out)}); ${CHROMIUM_MISSING}`);
  return false;
}
