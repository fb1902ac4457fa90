import { parseArgs } from "node:util";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "nats";
import { createKeyStore } from "./store";
import { keyHandlers } from "./handlers/keys";
import { createLogger } from "../kit/log";
import { ServiceError } from "../contract/errors";
import type { Scope } from "../contract/op";
import { createKey, KEY_REVOKED_SUBJECT, revokedNotice } from "../contract/keys";
import { encodeJson } from "../kit/wire";
import { BaseConfig, configOrExit, loadConfig } from "../kit/config";
import { connectRedis } from "../kit/connect";

/**
 * Operator CLI, run next to Redis with the keys service's own handlers (same rules as the API):
 *   bun run keys create --tenant acme --scopes '*' [--name ops] [--env test] [--rate-limit 1000]
 *   bun run keys list --tenant acme
 *   bun run keys revoke --tenant acme --id <key id>
 * REDIS_URL defaults to the local stack's Redis (DATA_DIR/redis-url written by `npm start`), NATS_URL
 * to its NATS (DATA_DIR/nats-url): a revocation is broadcast there, as the keys service does.
 */
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    tenant: { type: "string", default: "default" },
    scopes: { type: "string" },
    name: { type: "string", default: "cli" },
    env: { type: "string", default: "live" },
    "rate-limit": { type: "string" },
    id: { type: "string" },
  },
});

const localUrl = (name: string) => {
  const file = join(process.env.DATA_DIR ?? ".data", name);
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
};
const redisUrl = process.env.REDIS_URL ?? localUrl("redis-url");
const natsUrl = process.env.NATS_URL ?? localUrl("nats-url");
if (!redisUrl) {
  console.error("Set REDIS_URL (or start the local stack with `npm start` first).");
  process.exit(1);
}
const { REDIS_CLUSTER } = configOrExit(() => loadConfig({ REDIS_CLUSTER: BaseConfig.REDIS_CLUSTER }));
const redis = connectRedis(redisUrl, createLogger({ service: "keys-cli" }, "error"), "keys-cli", {
  cluster: REDIS_CLUSTER,
  offlineQueue: true,
});
// Only a revocation needs NATS: every gateway drops the key and ends its open streams at once.
const nc =
  positionals[0] === "revoke" && natsUrl
    ? await connect({ servers: natsUrl.split(","), timeout: 2000 }).catch(() => null)
    : null;
const announceRevoked = (key: { id: string; hash: string }) => {
  if (nc) return nc.publish(KEY_REVOKED_SUBJECT, encodeJson(revokedNotice(key)));
  console.error(
    "warning: NATS not reachable (set NATS_URL): gateways drop the key within KEY_CACHE_TTL_MS, " +
      "but its open streams stay open until they reconnect",
  );
};
const handlers = keyHandlers({
  store: createKeyStore(redis),
  defaultPlan: "self_hosted",
  selfHosted: { perMinute: 1000, perDay: 0 },
  announceRevoked,
  announceChanged: () => undefined, // no command here changes a key
});
const ctx = {
  caller: { tenant: values.tenant!, env: "live" as const, keyId: "cli", scopes: ["*" as Scope], root: true },
  requestId: `cli-${crypto.randomUUID()}`,
  log: createLogger({ service: "keys-cli" }, "warn"),
};

try {
  const command = positionals[0];
  if (command === "create") {
    const key = await handlers.create(
      createKey.validate({
        name: values.name!,
        tenant_id: values.tenant,
        environment: values.env as "live" | "test",
        scopes: values.scopes ? (values.scopes.split(",").map((s) => s.trim()) as Scope[]) : undefined,
        rate_limit: values["rate-limit"] ? Number(values["rate-limit"]) : undefined,
      }),
      ctx,
    );
    console.log(JSON.stringify(key, null, 2));
  } else if (command === "list") {
    console.log(JSON.stringify((await handlers.list({ limit: 100, offset: 0 }, ctx)).items, null, 2));
  } else if (command === "revoke" && values.id) {
    console.log(JSON.stringify(await handlers.revoke({ id: values.id }, ctx), null, 2));
  } else {
    console.error(
      "usage: bun run keys create|list|revoke --tenant <t> [--scopes a,b] [--name n] [--env live|test] " +
        "[--rate-limit n] [--id key-id]",
    );
    process.exitCode = 2;
  }
} catch (err) {
  console.error(
    err instanceof ServiceError
      ? `${err.code}: ${err.message} ${JSON.stringify(err.details ?? {})}`
      : (err as Error).message,
  );
  process.exitCode = 1;
} finally {
  redis.disconnect();
  await nc?.drain();
}
