import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { freePort } from "../stack/infra.ts";
import { DEBIAN_MIRROR } from "./apt.mjs";
import { buildRedis, REDIS_SAFE } from "./redis.mjs";
import { SetupError } from "./shell.mjs";
import { atLeast } from "./versions.mjs";

// The path a machine that has never seen the project takes: the real Debian mirror, an empty cache.
const cacheDir = mkdtempSync(join(tmpdir(), "redis-build-cache-"));
let server: ReturnType<typeof Bun.spawn> | undefined;
afterAll(async () => {
  server?.kill("SIGKILL");
  await server?.exited;
  rmSync(cacheDir, { recursive: true, force: true });
});

test("with no cache, buildRedis fetches and builds a Redis with vector sets, no older than the safe floor", async () => {
  const built = buildRedis({ cacheDir });
  expect(atLeast(built.version, REDIS_SAFE)).toBe(true);
  expect(built.server).toBe(join(cacheDir, `redis-${built.version}`, "bin", "redis-server"));

  const port = await freePort();
  server = Bun.spawn([built.server, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "ignore", "ignore"],
  });
  const redis = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 1 });
  redis.on("error", () => {}); // refused until the server listens; the commands below retry
  try {
    expect(await redis.call("VADD", "v", "VALUES", "2", "1", "0", "east")).toBe(1);
    expect(await redis.call("VADD", "v", "VALUES", "2", "0", "1", "north")).toBe(1);
    expect(await redis.call("VSIM", "v", "VALUES", "2", "0.9", "0.1", "COUNT", "1")).toEqual(["east"]);
    expect(String(await redis.info("server"))).toContain(`redis_version:${built.version}`);
  } finally {
    redis.disconnect();
  }
}, 600_000);

test("buildRedis fails with one line naming what it tried when no suite serves Redis", () => {
  const sources = [{ type: "deb-src" as const, uri: DEBIAN_MIRROR, suite: "no-such-suite" }];
  let error: unknown;
  try {
    buildRedis({ cacheDir: join(cacheDir, "empty"), sources });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(SetupError);
  const message = (error as Error).message;
  expect(message).toContain("no-such-suite");
  expect(message).toContain("no Redis >= 8.0 could be fetched and built");
  expect(message.split("\n")).toHaveLength(1);
}, 60_000);
