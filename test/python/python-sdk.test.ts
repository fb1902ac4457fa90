import { expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PYTHON_BIN, PYTHON_MISSING, missingPythonPackages } from "../../scripts/setup/python.mjs";
import { testStack } from "../harness";
import { runProcess } from "../process-helpers";

/**
 * The Python SDK (clients/python) on Debian's Python: its generated code matches the live OpenAPI document, its
 * pytest suite passes against this run's stack, `mypy --strict` is clean, and `pip install` works offline.
 */
const SDK = resolve(import.meta.dir, "../../clients/python");
const GENERATED = join(SDK, "memory_service", "generated");

/** Fails with what to install when the set-up could not install Debian's packages (not root, no sudo). */
function requirePackages() {
  const missing = missingPythonPackages();
  if (missing.length > 0) throw new Error(`missing ${missing.join(", ")}: ${PYTHON_MISSING}`);
}

/** Python writes no bytecode or caches into the checkout. */
const quiet = { PYTHONDONTWRITEBYTECODE: "1" };

test("the generated models, errors and resources match the live OpenAPI document", async () => {
  requirePackages();
  const stack = await testStack();
  const dir = mkdtempSync(join(tmpdir(), "py-generated-"));
  try {
    const document = await (await fetch(`${stack.baseUrl}/docs/json`)).text();
    writeFileSync(join(dir, "openapi.json"), document);
    const { out, err, code } = await runProcess(
      [PYTHON_BIN, join(SDK, "generate.py"), join(dir, "openapi.json"), join(dir, "out")],
      { env: { ...process.env, ...quiet } },
    );
    expect(`${out}${err}`).toBe("");
    expect(code).toBe(0);
    const files = readdirSync(join(dir, "out")).sort();
    expect(files).toEqual(
      readdirSync(GENERATED)
        .filter((f) => f.endsWith(".py"))
        .sort(),
    );
    for (const file of files) {
      const fresh = readFileSync(join(dir, "out", file), "utf8");
      // Regenerate: /usr/bin/python3 clients/python/generate.py <the document at /docs/json>
      expect({ file, text: readFileSync(join(GENERATED, file), "utf8") }).toEqual({ file, text: fresh });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test("the Python SDK's pytest suite passes against the stack, with both clients", async () => {
  requirePackages();
  const stack = await testStack();
  const { out, err, code } = await runProcess(
    [PYTHON_BIN, "-m", "pytest", "clients/python/tests", "-q", "-p", "no:cacheprovider"],
    {
      cwd: resolve(SDK, "../.."),
      env: { ...process.env, ...quiet, MEMORY_SERVICE_URL: stack.baseUrl, MEMORY_SERVICE_API_KEY: stack.adminKey },
    },
  );
  if (code !== 0) throw new Error(`pytest failed (exit code ${code}):\n${out}${err}`);
  expect(out).toMatch(/\d+ passed/);
}, 300_000);

test("mypy --strict is clean on the package and its examples", async () => {
  requirePackages();
  const cache = mkdtempSync(join(tmpdir(), "mypy-cache-"));
  try {
    const { out, err, code } = await runProcess(
      ["/usr/bin/mypy", "--strict", "--cache-dir", cache, "memory_service", "examples"],
      { cwd: SDK, env: { ...process.env, ...quiet } },
    );
    expect(`${out}${err}`.trim()).toMatch(/^Success: no issues found/);
    expect(code).toBe(0);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}, 120_000);

test("pip install ./clients/python works offline, in a venv over Debian's packages", async () => {
  requirePackages();
  const dir = mkdtempSync(join(tmpdir(), "py-install-"));
  try {
    const venv = join(dir, "venv");
    const made = await runProcess([PYTHON_BIN, "-m", "venv", "--system-site-packages", venv]);
    expect(made.err).toBe("");
    // A copy: pip builds in the source tree, and the checkout stays clean.
    const source = join(dir, "python");
    cpSync(SDK, source, { recursive: true, filter: (p) => !/__pycache__|\.mypy_cache|\.pytest_cache/.test(p) });
    const env = { ...process.env, ...quiet, PIP_NO_INDEX: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1" };
    const pip = await runProcess([join(venv, "bin", "pip"), "install", source], { cwd: dir, env });
    expect({ code: pip.code, out: pip.code === 0 ? "" : `${pip.out}${pip.err}` }).toEqual({ code: 0, out: "" });
    const check = await runProcess(
      [join(venv, "bin", "python"), "-c", "import memory_service, sys; print(memory_service.__file__)"],
      { cwd: dir, env },
    );
    expect(check.out).toContain(join(venv, "lib"));
    expect(existsSync(join(SDK, "build"))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
