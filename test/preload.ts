import { afterAll } from "bun:test";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { stopTestStack } from "./harness";

mkdirSync(resolve(process.env.TEST_DATA_ROOT ?? ".data-test"), { recursive: true });
afterAll(async () => {
  await stopTestStack();
}, 120_000);
