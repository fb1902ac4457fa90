import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { testStack } from "../harness";
import { connect } from "nats";
import { KEY_REVOKED_SUBJECT } from "../../services/contract/keys";
import { apiClient, newTenant } from "../api";

const ROOT = resolve(import.meta.dir, "../..");

test("operator CLI: `keys create --tenant acme --scopes '*'` mints a working key in that tenant", async () => {
  const stack = await testStack();
  const tenant = `cli${crypto.randomUUID().slice(0, 6)}`;
  const out = Bun.spawnSync(
    [process.execPath, "services/keys/cli/keys.ts", "create", "--tenant", tenant, "--scopes", "*", "--name", "ops"],
    {
      cwd: ROOT,
      env: { ...process.env, REDIS_URL: stack.redisUrl },
    },
  );
  expect(out.exitCode).toBe(0);
  const created = JSON.parse(out.stdout.toString());
  expect(created.tenant_id).toBe(tenant);
  expect(created.scopes).toEqual(["*"]);
  const api = apiClient(stack.baseUrl, created.key);
  const list = await api.get("/v1/keys");
  expect(list.status).toBe(200);
  expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.id);
}, 30_000); // may start the stack

test("operator CLI: invalid input is refused with the validation message", () => {
  const out = Bun.spawnSync(
    [process.execPath, "services/keys/cli/keys.ts", "create", "--tenant", "x", "--scopes", "everything"],
    {
      cwd: ROOT,
      env: { ...process.env, REDIS_URL: "redis://127.0.0.1:1" },
    },
  );
  expect(out.exitCode).toBe(1);
  expect(out.stderr.toString()).toContain("VALIDATION_ERROR");
});

test("operator CLI: `keys revoke` broadcasts the revocation, so gateways end the key's streams at once", async () => {
  const stack = await testStack();
  const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
  const nc = await connect({ servers: stack.natsUrl.split(",") });
  const notices: unknown[] = [];
  nc.subscribe(KEY_REVOKED_SUBJECT, { callback: (_err, msg) => notices.push(msg.json()) });
  await nc.flush();
  const argv = [process.execPath, "services/keys/cli/keys.ts", "revoke", "--tenant", t.tenant, "--id", t.keyId];
  const out = Bun.spawnSync(argv, {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: stack.redisUrl, NATS_URL: stack.natsUrl },
  });
  expect(out.exitCode).toBe(0);
  await nc.flush();
  await nc.close();
  expect(notices).toEqual([{ hash: expect.stringMatching(/^[0-9a-f]{64}$/), key_id: t.keyId }]);
  expect((await t.api.get("/v1/tags")).status).toBe(401);
}, 30_000);
