import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { API_KEY_RE } from "../../services/contract/keys";
import { resolveAdminKey } from "./admin-key";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "admin-key-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test("first local start generates a well-formed admin key, keeps it with mode 600, and reuses it", () => {
  const dir = tempDir();
  const first = resolveAdminKey(dir, {});
  expect(first.generated).toBe(true);
  expect(first.key).toMatch(API_KEY_RE);
  expect(first.key.startsWith("svc_live_")).toBe(true);
  expect(statSync(join(dir, "admin-key")).mode & 0o777).toBe(0o600);
  const second = resolveAdminKey(dir, {});
  expect(second).toMatchObject({ key: first.key, generated: false });
});

test("BOOTSTRAP_ADMIN_KEY wins when set", () => {
  const dir = tempDir();
  const key = `svc_live_${"a".repeat(32)}`;
  expect(resolveAdminKey(dir, { BOOTSTRAP_ADMIN_KEY: key })).toMatchObject({ key, generated: false, file: null });
});
