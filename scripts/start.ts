import { resolve } from "node:path";
import { startStack } from "./stack/launch";
import { BaseConfig, loadConfig } from "../services/kit/config";
import { removeStackRecord, writeStackRecord } from "../services/kit/local-stack";

/** `npm start`: the whole stack in the foreground; Ctrl-C / SIGTERM stops everything cleanly. */
const dataDir = resolve(process.env.DATA_DIR ?? "./.data");
const port = Number(process.env.PORT ?? 3000);
console.log(`starting the stack (data in ${dataDir})…`);
const stack = await startStack({ dataDir, port });
// The operator commands (`npm run keys`, `storage`, `reindex`, `export`, `import`) find this stack by its record.
writeStackRecord({
  pid: process.pid,
  started_at: new Date().toISOString(),
  data_dir: dataDir,
  base_url: stack.baseUrl,
  redis_url: stack.redisUrl,
  redis_cluster: loadConfig({ REDIS_CLUSTER: BaseConfig.REDIS_CLUSTER }).REDIS_CLUSTER,
  nats_url: stack.natsUrl,
  admin_key_file: stack.adminKeyFile,
});
process.on("exit", () => removeStackRecord(dataDir));
const adminKey = stack.adminKeyGenerated
  ? stack.adminKey + "   (new: shown once, kept in " + stack.adminKeyFile + ")"
  : stack.adminKeyFile
    ? `in ${stack.adminKeyFile}`
    : "BOOTSTRAP_ADMIN_KEY";
console.log(`
  Memory Storage Service is up
  base URL   ${stack.baseUrl}/v1   (also ${stack.baseUrl}/api/v1)
  docs       ${stack.baseUrl}/docs
  GraphQL    ${stack.baseUrl}/graphql
  dashboard  ${stack.baseUrl}/dashboard
  metrics    ${stack.metricsUrl}   (internal port, not the API's)
  admin key  ${adminKey}
  logs       ${dataDir}/logs/

  try: curl -H "Authorization: Bearer $(cat ${stack.adminKeyFile ?? "<admin key>"})" ${stack.baseUrl}/v1/keys
`);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log("stopping…");
  removeStackRecord(dataDir);
  await stack.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
