// Debian's Python packages for the Python SDK's tests (clients/python, run by test/python): httpx, pytest,
// pytest-asyncio and mypy for Debian's /usr/bin/python3, and venv (the install test makes one). Only a test run
// that includes them installs them; the stack itself never needs Python. Nothing comes from PyPI.
import { existsSync } from "node:fs";
import { normalize } from "node:path";
import { lastError, log, run } from "./shell.mjs";
import { aptInstaller } from "./system-apt.mjs";

export const PYTHON_BIN = "/usr/bin/python3";
export const MYPY_BIN = "/usr/bin/mypy";
/** Each Debian package, and the module (or binary) that shows it is there. */
export const PYTHON_PACKAGES = [
  { pkg: "python3-httpx", module: "httpx" },
  { pkg: "python3-pytest", module: "pytest" },
  { pkg: "python3-pytest-asyncio", module: "pytest_asyncio" },
  { pkg: "python3-venv", module: "ensurepip" },
  { pkg: "mypy", bin: MYPY_BIN },
];
export const PYTHON_MISSING =
  "the Python SDK's tests need Debian's Python packages: apt-get install -y --no-install-recommends " +
  `${PYTHON_PACKAGES.map((p) => p.pkg).join(" ")} (as root)`;

const PYTHON_TESTS = "test/python";

/** Whether `bun <script> <args>` runs the Python SDK's tests: the whole suite, or a path at or above test/python. */
export function runsPythonTests(script, args) {
  if (normalize(script) !== "scripts/test.ts") return false;
  const paths = args.filter((a) => !a.startsWith("-")).map((a) => normalize(a).replace(/\/$/, ""));
  if (paths.length === 0) return true;
  return paths.some((p) => p === "." || p.startsWith(PYTHON_TESTS) || `${PYTHON_TESTS}/`.startsWith(`${p}/`));
}

/** The Debian packages not installed for `python` (all of them when there is no such interpreter). */
export function missingPythonPackages({ python = PYTHON_BIN } = {}) {
  const modules = PYTHON_PACKAGES.filter((p) => p.module).map((p) => p.module);
  // One interpreter start for every module: it prints those it cannot find.
  const probe = `import importlib.util as u\nfor m in ${JSON.stringify(modules)}:\n  u.find_spec(m) or print(m)`;
  const r = existsSync(python) ? run(python, ["-c", probe]) : { ok: false, out: "" };
  const absent = new Set(r.ok ? r.out.split("\n").filter(Boolean) : modules);
  return PYTHON_PACKAGES.filter(({ module, bin }) => (bin ? !existsSync(bin) : absent.has(module))).map((p) => p.pkg);
}

/**
 * Installs the missing packages with apt-get when it can (one `bootstrap:` line); otherwise one line says what to
 * install, and test/python fails with the same words.
 * @returns {boolean} whether every package is there
 */
export function ensurePythonPackages({ installer = aptInstaller, missing = missingPythonPackages } = {}) {
  const pkgs = missing();
  if (pkgs.length === 0) return true;
  const install = installer();
  if (!install) {
    log(PYTHON_MISSING);
    return false;
  }
  log(`installing Debian's Python packages for the Python SDK's tests (apt-get install ${pkgs.join(" ")})…`);
  for (const pkg of pkgs) {
    const r = install(pkg);
    if (!r.ok) {
      log(`apt-get install ${pkg} failed (${lastError(r.out)}); ${PYTHON_MISSING}`);
      return false;
    }
  }
  return missing().length === 0;
}
