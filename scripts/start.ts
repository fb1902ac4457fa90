import { resolve } from "node:path";
import { startStack } from "./stack/launch";

/** `npm start`: the whole stack in the foreground; Ctrl-C / SIGTERM stops everything cleanly. */
const dataDir = resolve(process.env.DATA_DIR ?? "./.data");
const port = Number(process.env.PORT ?? 3000);
console.log(`starting the stack (data in ${dataDir})…`);
const stack = await startStack({ dataDir, port });
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
  await stack.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
