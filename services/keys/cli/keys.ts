import { connect } from "nats";
import { createKeyStore } from "../store";
import { keyHandlers } from "../handlers/keys";
import { createLogger } from "../../kit/log";
import type { Scope } from "../../contract/op";
import { createKey, KEY_REVOKED_SUBJECT, revokedNotice } from "../../contract/keys";
import { encodeJson } from "../../kit/wire";
import { connectRedis } from "../../kit/connect";
import { operatorArgs, runOperatorCommand, stackTarget } from "../../kit/operator";

/**
 * Operator CLI, run next to Redis with the keys service's own handlers (same rules as the API):
 *   npm run keys -- create --tenant acme --scopes '*' [--name ops] [--env test] [--rate-limit 1000]
 *   npm run keys -- list --tenant acme
 *   npm run keys -- revoke --tenant acme --id <key id>
 * REDIS_URL and NATS_URL default to those of the stack `npm start` runs (kit/operator.ts); a revocation is
 * broadcast on NATS, as the keys service does.
 */
const usage =
  "usage: bun run keys create|list|revoke --tenant <t> [--scopes a,b] [--name n] [--env live|test] " +
  "[--rate-limit n] [--id key-id]";
const { positionals, values } = operatorArgs(
  {
    allowPositionals: true,
    options: {
      tenant: { type: "string", default: "default" },
      scopes: { type: "string" },
      name: { type: "string", default: "cli" },
      env: { type: "string", default: "live" },
      "rate-limit": { type: "string" },
      id: { type: "string" },
    },
  },
  usage,
);

const target = stackTarget();
const command = positionals[0];
if (command !== "create" && command !== "list" && !(command === "revoke" && values.id)) {
  console.error(usage);
  process.exit(2);
}
const caller = { tenant: values.tenant!, env: "live" as const, keyId: "cli", scopes: ["*" as Scope], root: true };
const ctx = { caller, requestId: `cli-${crypto.randomUUID()}`, log: createLogger({ service: "keys-cli" }, "warn") };

await runOperatorCommand(async () => {
  // The input is checked before anything is reached: a wrong flag is told as such, with the stack up or down.
  const input =
    command === "create"
      ? createKey.validate({
          name: values.name!,
          tenant_id: values.tenant,
          environment: values.env as "live" | "test",
          scopes: values.scopes ? (values.scopes.split(",").map((s) => s.trim()) as Scope[]) : undefined,
          rate_limit: values["rate-limit"] ? Number(values["rate-limit"]) : undefined,
        })
      : null;
  const { url, cluster } = await target.redis();
  const redis = connectRedis(url, createLogger({ service: "keys-cli" }, "error"), "keys-cli", {
    cluster,
    offlineQueue: true,
  });
  // Only a revocation needs NATS: every gateway drops the key and ends its open streams at once.
  const natsUrl = command === "revoke" ? target.natsIfKnown() : null;
  const nc = natsUrl ? await connect({ servers: natsUrl.split(","), timeout: 2000 }).catch(() => null) : null;
  const note = target.choiceNote();
  if (note) console.error(note);
  try {
    const handlers = keyHandlers({
      store: createKeyStore(redis),
      defaultPlan: "self_hosted",
      selfHosted: { perMinute: 1000, perDay: 0 },
      announceRevoked: (key) => {
        if (nc) return nc.publish(KEY_REVOKED_SUBJECT, encodeJson(revokedNotice(key)));
        console.error(
          "warning: NATS not reachable (set NATS_URL): gateways drop the key within KEY_CACHE_TTL_MS, " +
            "but its open streams stay open until they reconnect",
        );
      },
      announceChanged: () => undefined, // no command here changes a key
    });
    const result =
      command === "create"
        ? await handlers.create(input!, ctx)
        : command === "list"
          ? (await handlers.list({ limit: 100, offset: 0 }, ctx)).items
          : await handlers.revoke({ id: values.id! }, ctx);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    redis.disconnect();
    await nc?.drain();
  }
});
