import { expect, test } from "bun:test";
import { withEnv } from "./env.fixture";
import { ensurePythonPackages, PYTHON_MISSING, runsPythonTests } from "./python.mjs";

test("only a test run that includes test/python asks for the Python packages; npm start never does", () => {
  expect(runsPythonTests("scripts/test.ts", [])).toBe(true);
  expect(runsPythonTests("scripts/test.ts", ["test"])).toBe(true);
  expect(runsPythonTests("scripts/test.ts", ["test/python/python-sdk.test.ts"])).toBe(true);
  expect(runsPythonTests("scripts/test.ts", ["test/gateway", "test/browser"])).toBe(false);
  expect(runsPythonTests("scripts/test.ts", ["test/py"])).toBe(false);
  expect(runsPythonTests("scripts/start.ts", [])).toBe(false);
});

test("everything there: nothing is installed and nothing is printed", () => {
  let asked = 0;
  const installer = () => (asked++, null);
  const { result, lines } = withEnv({}, () => ensurePythonPackages({ installer, missing: () => [] }));
  expect(result).toBe(true);
  expect(asked).toBe(0);
  expect(lines).toEqual([]);
});

test("missing ones are installed one by one with apt-get", () => {
  const installed: string[] = [];
  let missing = ["python3-httpx", "mypy"];
  const install = (pkg: string) => {
    installed.push(pkg);
    missing = missing.filter((p) => p !== pkg);
    return { ok: true, out: "" };
  };
  const { result, lines } = withEnv({}, () =>
    ensurePythonPackages({ installer: () => install, missing: () => missing }),
  );
  expect(result).toBe(true);
  expect(installed).toEqual(["python3-httpx", "mypy"]);
  expect(lines).toHaveLength(1);
});

test("no way to install (not root, no sudo): one line says what to install", () => {
  const { result, lines } = withEnv({}, () =>
    ensurePythonPackages({ installer: () => null, missing: () => ["python3-pytest"] }),
  );
  expect(result).toBe(false);
  expect(lines).toEqual([`bootstrap: ${PYTHON_MISSING}`]);
});
