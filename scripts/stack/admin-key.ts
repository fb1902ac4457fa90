import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

/**
 * The admin key of a local stack: BOOTSTRAP_ADMIN_KEY when set, else the one kept in
 * DATA_DIR/admin-key (mode 600), else a new one written there. `generated` says whether to print it.
 */
export function resolveAdminKey(
  dataDir: string,
  env = process.env,
): { key: string; generated: boolean; file: string | null } {
  if (env.BOOTSTRAP_ADMIN_KEY) return { key: env.BOOTSTRAP_ADMIN_KEY, generated: false, file: null };
  const file = join(dataDir, "admin-key");
  if (existsSync(file)) return { key: readFileSync(file, "utf8").trim(), generated: false, file };
  mkdirSync(dataDir, { recursive: true });
  const key = `svc_live_${randomBytes(24).toString("base64url")}`;
  writeFileSync(file, key + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key, generated: true, file };
}
