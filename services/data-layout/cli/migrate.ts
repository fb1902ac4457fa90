import { BaseConfig, configOrExit, loadConfig } from "../../kit/config";
import { connectNats, connectRedis, redisReady } from "../../kit/connect";
import { createBus } from "../../kit/bus";
import { createLogger } from "../../kit/log";
import { OperatorError, operatorArgs, runOperatorCommand, serviceEnvOf, stackTarget } from "../../kit/operator";
import { SearchConfig } from "../../search/config";
import { searchMigrations } from "../../search/migrations";
import { buildSearch, closeSearch, type SearchParts } from "../../search/wiring";
import { olderReplicas } from "../auto";
import { MigrationConfig } from "../config";
import { CURRENT_LAYOUT, LayoutTooNewError, UNVERSIONED_LAYOUT } from "../layout";
import { MIGRATIONS, pendingSteps } from "../registry";
import { runMigrations } from "../runner";
import { createLayoutStore } from "../store";

/**
 * `npm run migrate -- [--dry-run] [--batch-size N] [--pause-ms N] [--force]`: brings the stored data to this
 * release's layout (data-layout/layout.ts), each pending step in order, from where a run before stopped. The
 * services run their steps themselves once no older replica is left; this runs them by hand (e.g. with
 * MIGRATION_AUTO=false). REDIS_URL and NATS_URL default to those of the stack `npm start` runs (kit/operator.ts).
 */
const usage = "usage: bun run migrate [--dry-run] [--batch-size N] [--pause-ms N] [--force]";
const { values } = operatorArgs(
  {
    options: {
      "dry-run": { type: "boolean" },
      "batch-size": { type: "string" },
      "pause-ms": { type: "string" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  },
  usage,
);
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const target = stackTarget();
await runOperatorCommand(async () => {
  const env = {
    ...(await serviceEnvOf(target)),
    ...(values["batch-size"] ? { MIGRATION_BATCH_SIZE: values["batch-size"] } : {}),
    ...(values["pause-ms"] ? { MIGRATION_PAUSE_MS: values["pause-ms"] } : {}),
  };
  const config = configOrExit(() => loadConfig({ ...BaseConfig, ...SearchConfig, ...MigrationConfig }, env));
  const dryRun = values["dry-run"] === true;
  const log = createLogger({ service: "migrate" }, config.LOG_LEVEL === "debug" ? "debug" : "warn");
  const redis = connectRedis(config.REDIS_URL, log, "migrate", { cluster: config.REDIS_CLUSTER });
  await redisReady(redis, log, 10_000);
  const nc = await connectNats(config.NATS_URL, "migrate", log);
  const store = createLayoutStore(redis);
  let parts: SearchParts | null = null;
  try {
    const recorded = await store.version();
    const layout = recorded ?? UNVERSIONED_LAYOUT;
    console.log(
      recorded === null
        ? `data layout: none recorded (written before layouts were versioned), taken as ${layout}`
        : `data layout: ${layout}`,
    );
    console.log(`this release: layout ${CURRENT_LAYOUT}`);
    if (layout > CURRENT_LAYOUT) throw new OperatorError(new LayoutTooNewError(layout, CURRENT_LAYOUT).message);
    if (layout === CURRENT_LAYOUT) {
      console.log("nothing to migrate");
      return 0;
    }
    for (const m of MIGRATIONS.filter((m) => m.from >= layout))
      console.log(`  ${m.from} → ${m.from + 1}  ${m.name} (${m.owner}): ${m.summary}`);
    const saved = await store.progress();
    if (saved) console.log(`under way: ${saved.step}, ${saved.seen} seen, ${saved.changed} changed so far`);
    const older = await olderReplicas(nc);
    if (older.length > 0 && !dryRun && !values.force) {
      throw new OperatorError(
        `${older.length} service replica(s) of an older release still run (${older.slice(0, 3).join(", ")}): ` +
          "stop them first (their code writes the old form), or pass --force",
      );
    }
    // The steps build the search service's pieces (its model) only when they run for real.
    const rebuilder = {
      rebuild: async (space: Parameters<SearchParts["rebuilder"]["rebuild"]>[0]) => {
        parts ??= await buildSearch({ config, redis, bus: createBus(nc, { timeoutMs: 30_000 }), log });
        return parts.rebuilder.rebuild(space);
      },
    };
    const steps = pendingSteps(layout, searchMigrations(redis, rebuilder));
    const result = await runMigrations(store, steps, {
      batchSize: config.MIGRATION_BATCH_SIZE,
      pauseMs: dryRun ? 0 : config.MIGRATION_PAUSE_MS,
      dryRun,
      log,
      onBatch: (step, p) =>
        console.log(`${step.name}: ${p.seen} seen, ${p.changed} ${dryRun ? "to change" : "changed"}`),
    });
    if (result.status === "busy") {
      console.log("another runner holds the migration's lease (a service runs it): see data_layout_* on /metrics");
      return 0;
    }
    for (const s of result.steps)
      console.log(`${s.name}: ${dryRun ? "would change" : "changed"} ${s.changed} of ${s.seen}`);
    console.log(dryRun ? `dry run: nothing written; layout stays ${layout}` : `data layout: ${result.to}`);
    return 0;
  } finally {
    if (parts) await closeSearch(parts);
    await nc.drain().catch(() => undefined);
    redis.disconnect();
  }
});
