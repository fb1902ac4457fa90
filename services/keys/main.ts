import { runService } from "../kit/runtime";
import { loadKeysConfig } from "./config";
import { ensureStream } from "../kit/streams";
import { STREAMS } from "../contract/streams";
import { KEY_CHANGED_SUBJECT, KEY_REVOKED_SUBJECT, revokedNotice, type KeyChanged } from "../contract/keys";
import { encodeJson } from "../kit/wire";
import { errorFields } from "../kit/log";
import { createKeyStore } from "./store";
import { eraseBinding } from "./handlers/erase";
import { keyBindings } from "./handlers/keys";
import { usageBindings } from "./handlers/usage";
import { startUsageConsumer } from "./usage-consumer";
import { registerRootKey } from "./bootstrap";
import { getStorageUsage } from "../contract/usage";
import { tokenBindings, tokenHandlers } from "./handlers/tokens";
import { TOKEN_SECRETS_SUBJECT } from "../contract/tokens";
import { registerOrigins } from "../contract/tenant";

const config = loadKeysConfig();

/** How often the keys service looks at the signing secret's age. */
const ROTATION_CHECK_MS = 3_600_000;

await runService(
  { name: "keys", version: "1.0.0", description: "API keys, verification and usage" },
  config,
  async ({ config, nc, redis, bus, log }) => {
    const store = createKeyStore(redis);
    const announceRevoked = (key: { id: string; hash: string }) =>
      nc.publish(KEY_REVOKED_SUBJECT, encodeJson(revokedNotice(key)));
    if (config.BOOTSTRAP_ADMIN_KEY) await registerRootKey(store, config.BOOTSTRAP_ADMIN_KEY, log, announceRevoked);
    await ensureStream(nc, STREAMS.USAGE, config.JETSTREAM_REPLICAS);
    const stopConsumer = await startUsageConsumer(nc, store, log);
    const selfHosted = { perMinute: config.RATE_LIMIT_PER_MINUTE, perDay: config.RATE_LIMIT_PER_DAY };
    const tokens = tokenHandlers({
      store,
      defaultPlan: config.DEFAULT_PLAN,
      selfHosted,
      announceSecrets: () => nc.publish(TOKEN_SECRETS_SUBJECT),
      registerOrigins: async (origins, until_ms, requestId) => {
        await bus.call(registerOrigins, { origins, until_ms }, { requestId });
      },
    });
    const rotateOld = () =>
      tokens.rotate(config.TOKEN_SECRET_ROTATION_HOURS * 3_600_000).catch((err: Error) => {
        log.warn("token signing secret not rotated", errorFields(err));
      });
    await rotateOld();
    const rotation = setInterval(rotateOld, ROTATION_CHECK_MS);
    const bindings = [
      ...keyBindings({
        store,
        defaultPlan: config.DEFAULT_PLAN,
        selfHosted,
        announceRevoked,
        announceChanged: (notice: KeyChanged) => nc.publish(KEY_CHANGED_SUBJECT, encodeJson(notice)),
      }),
      ...usageBindings(store, (ctx) => bus.call(getStorageUsage, {}, { requestId: ctx.requestId, caller: ctx.caller })),
      eraseBinding({ store, announceRevoked }),
      ...tokenBindings(tokens),
    ];
    const onStop = async () => {
      clearInterval(rotation);
      await stopConsumer();
    };
    return { bindings, onStop };
  },
);
