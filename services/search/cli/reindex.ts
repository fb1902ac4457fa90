import { BaseConfig, configOrExit, loadConfig } from "../../kit/config";
import { connectNats, connectRedis, redisReady } from "../../kit/connect";
import { createBus } from "../../kit/bus";
import { createLogger } from "../../kit/log";
import { operatorArgs, runOperatorCommand, serviceEnvOf, stackTarget } from "../../kit/operator";
import type { Space } from "../../kit/space";
import { SearchConfig } from "../config";
import { buildSearch, closeSearch } from "../wiring";
import { progressBar } from "./progress";

/**
 * `npm run reindex -- [--tenant <id>] [--env live|test]`: rebuilds search indexes from the memories store
 * (through its NATS operations: the stack must be running; REDIS_URL and NATS_URL default to those of the
 * stack `npm start` runs, kit/operator.ts), e.g. after a model change or to repair. Without --tenant: every
 * tenant that has a search index. Safe while the service runs: writes made meanwhile are never overwritten,
 * and one rebuild per tenant runs at a time.
 */
const usage = "usage: bun run reindex [--tenant <tenant id>] [--env live|test]";
const { values } = operatorArgs(
  { options: { tenant: { type: "string" }, env: { type: "string" }, help: { type: "boolean", short: "h" } } },
  usage,
);
if (values.help || (values.env && values.env !== "live" && values.env !== "test")) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

const target = stackTarget();
await runOperatorCommand(async () => {
  // The search service's own settings, with Redis and NATS where they were found.
  const env = await serviceEnvOf(target);
  const config = configOrExit(() => loadConfig({ ...BaseConfig, ...SearchConfig }, env));
  const log = createLogger({ service: "reindex" }, config.LOG_LEVEL === "debug" ? "debug" : "warn");
  const redis = connectRedis(config.REDIS_URL, log, "reindex", { cluster: config.REDIS_CLUSTER });
  await redisReady(redis, log, 10_000);
  const nc = await connectNats(config.NATS_URL, "reindex", log);
  const bus = createBus(nc, { timeoutMs: config.NATS_REQUEST_TIMEOUT_MS });
  const parts = await buildSearch({ config, redis, bus, log });

  let failed = 0;
  try {
    const envs = values.env ? [values.env as Space["env"]] : (["live", "test"] as const);
    const spaces: Space[] = values.tenant
      ? envs.map((env) => ({ tenant: values.tenant!, env }))
      : (await parts.store.admin.spaces()).filter((s) => envs.includes(s.env));
    if (spaces.length === 0) console.error("no search index found: nothing to rebuild (name one with --tenant)");
    console.error(`model ${parts.modelId}; ${spaces.length} index(es) to rebuild`);
    for (const space of spaces) {
      const bar = progressBar(`${space.tenant} (${space.env})`);
      try {
        const r = await parts.rebuilder.rebuild(space, (done, total) => bar.update(done, total));
        bar.finish(
          r.status === "busy"
            ? "skipped: another rebuild of this index is running"
            : `${r.total} memories, ${r.indexed} (re)indexed, ${r.removed} removed`,
        );
      } catch (err) {
        failed++;
        bar.finish(`failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await closeSearch(parts);
    await nc.drain().catch(() => undefined);
    redis.disconnect();
  }
  return failed > 0 ? 1 : 0;
});
