import { connectRedis, redisReady } from "../../kit/connect";
import { createLogger } from "../../kit/log";
import { operatorArgs, runOperatorCommand, stackTarget } from "../../kit/operator";
import type { Space } from "../../kit/space";
import { createStorageStore } from "../storage";

/**
 * `npm run storage -- recount --tenant <id> [--env live|test] [--fix]`: counts a tenant environment's memories and
 * bytes from its records and compares them with the counters its quotas are checked against; `--fix` writes the
 * recount (only while the space is quiet: writes made during the count would be lost from the counters, e.g.
 * once for data written before the counters existed).
 * `npm run storage -- top [--limit 20]`: the tenant environments storing the most bytes.
 * Redis is REDIS_URL's, else that of the stack `npm start` runs (kit/operator.ts).
 */
const usage = "usage: bun run storage recount --tenant <id> [--env live|test] [--fix] | top [--limit <n>]";
const { values, positionals } = operatorArgs(
  {
    allowPositionals: true,
    options: {
      tenant: { type: "string" },
      env: { type: "string", default: "live" },
      fix: { type: "boolean", default: false },
      limit: { type: "string", default: "20" },
      help: { type: "boolean", short: "h" },
    },
  },
  usage,
);
const command = positionals[0];
if (
  values.help ||
  (command !== "recount" && command !== "top") ||
  (command === "recount" && !values.tenant) ||
  (values.env !== "live" && values.env !== "test")
) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

const target = stackTarget();
await runOperatorCommand(async () => {
  const { url, cluster } = await target.redis();
  const note = target.choiceNote();
  if (note) console.error(note);
  const log = createLogger({ service: "storage-cli" }, "warn");
  const redis = connectRedis(url, log, "storage-cli", { cluster });
  await redisReady(redis, log, 10_000);
  const storage = createStorageStore(redis);
  try {
    if (command === "top") {
      for (const s of await storage.largest(Number(values.limit))) {
        console.log(`${s.space.tenant}\t${s.space.env}\t${s.memories} memories\t${s.bytes} bytes`);
      }
      return 0;
    }
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
      return 1;
    }
    return 0;
  } finally {
    redis.disconnect();
  }
});
