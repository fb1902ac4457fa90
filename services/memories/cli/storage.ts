import { parseArgs } from "node:util";
import { loadServiceConfig } from "../../kit/config";
import { connectRedis, redisReady } from "../../kit/connect";
import { createLogger } from "../../kit/log";
import type { Space } from "../../kit/space";
import { createStorageStore } from "../storage-store";

/**
 * `bun run storage recount --tenant <id> [--env live|test] [--fix]`: counts a tenant environment's memories and
 * bytes from its records and compares them with the counters its quotas are checked against; `--fix` writes the
 * recount (only while the space is quiet: writes made during the count would be lost from the counters, e.g.
 * once for data written before the counters existed).
 * `bun run storage top [--limit 20]`: the tenant environments storing the most bytes.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tenant: { type: "string" },
    env: { type: "string", default: "live" },
    fix: { type: "boolean", default: false },
    limit: { type: "string", default: "20" },
    help: { type: "boolean", short: "h" },
  },
});
const command = positionals[0];
const usage = "usage: bun run storage recount --tenant <id> [--env live|test] [--fix] | top [--limit <n>]";
if (
  values.help ||
  (command !== "recount" && command !== "top") ||
  (command === "recount" && !values.tenant) ||
  (values.env !== "live" && values.env !== "test")
) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

const config = loadServiceConfig({});
const log = createLogger({ service: "storage-cli" }, "warn");
const redis = connectRedis(config.REDIS_URL, log, "storage-cli", { cluster: config.REDIS_CLUSTER });
await redisReady(redis, log, 10_000);
const storage = createStorageStore(redis);
let code = 0;
try {
  if (command === "top") {
    for (const s of await storage.largest(Number(values.limit))) {
      console.log(`${s.space.tenant}\t${s.space.env}\t${s.memories} memories\t${s.bytes} bytes`);
    }
  } else {
    const space: Space = { tenant: values.tenant!, env: values.env as Space["env"] };
    const [{ count }, recount] = await Promise.all([storage.usage(space), storage.recount(space)]);
    console.log(`counters: ${count.memories} memories, ${count.bytes} bytes`);
    console.log(`recount:  ${recount.memories} memories, ${recount.bytes} bytes`);
    const drift = count.memories !== recount.memories || count.bytes !== recount.bytes;
    if (drift && values.fix) {
      await storage.setCount(space, recount);
      console.log("counters set to the recount");
    } else if (drift) {
      console.log("the counters differ (--fix writes the recount)");
      code = 1;
    }
  }
} finally {
  redis.disconnect();
}
process.exit(code);
