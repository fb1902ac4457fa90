import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { testStack } from "./harness";
import { apiClient } from "./api";

const ROOT = resolve(import.meta.dir, "..");

test("operator CLI: `keys create --tenant acme --scopes '*'` mints a working key in that tenant", async () => {
  const stack = await testStack();
  const tenant = `cli${crypto.randomUUID().slice(0, 6)}`;
  const out = Bun.spawnSync([process.execPath, "services/keys/cli.ts", "create", "--tenant", tenant, "--scopes", "*", "--name", "ops"], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: stack.redisUrl },
  });
  expect(out.exitCode).toBe(0);
  const created = JSON.parse(out.stdout.toString());
  expect(created.tenant_id).toBe(tenant);
  expect(created.scopes).toEqual(["*"]);
  const api = apiClient(stack.baseUrl, created.key);
  const list = await api.get("/v1/keys");
  expect(list.status).toBe(200);
  expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.id);
});

test("operator CLI: invalid input is refused with the validation message", () => {
  const out = Bun.spawnSync([process.execPath, "services/keys/cli.ts", "create", "--tenant", "x", "--scopes", "everything"], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: "redis://127.0.0.1:1" },
  });
  expect(out.exitCode).toBe(1);
  expect(out.stderr.toString()).toContain("VALIDATION_ERROR");
});
