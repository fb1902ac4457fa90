import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { freePort } from "../stack/infra.ts";
import { DEBIAN_MIRROR } from "./apt.mjs";
import { buildRedis, ensureRedis, REDIS_SAFE } from "./redis.mjs";
import { SetupError } from "./shell.mjs";
import { withEnv } from "./env.fixture";
import { atLeast } from "./versions.mjs";

// The path a machine that has never seen the project takes: the real Debian mirror, an empty cache.
const cacheDir = mkdtempSync(join(tmpdir(), "redis-build-cache-"));
let server: ReturnType<typeof Bun.spawn> | undefined;
afterAll(async () => {
  server?.kill("SIGKILL");
  await server?.exited;
  rmSync(cacheDir, { recursive: true, force: true });
});

/** A stand-in for an old build: answers --version like Redis 8.0.2 does. */
function fakeRedis(version: string): string {
  const bin = join(cacheDir, `redis-${version}`, "bin");
  mkdirSync(bin, { recursive: true });
  for (const name of ["redis-server", "redis-cli"]) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho "Redis server v=${version} sha=00000000:0 malloc=libc bits=64"\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return join(bin, "redis-server");
}

test("only a stale cache: ensureRedis passes over Redis < 8.0.4 and builds the newest from the mirror", async () => {
  const stale = fakeRedis("8.0.2");
  const { result: built, lines } = withEnv(
    { REDIS_URL: undefined, REDIS_SERVER_BIN: stale, REDIS_CLI_BIN: undefined, PATH: "/usr/bin:/bin" },
    () => ensureRedis({ cacheDir }),
  );
  expect(lines).toContain(
    `bootstrap: ignoring REDIS_SERVER_BIN=${stale}: Redis 8.0.2 is older than 8.0.4, which fixes ` +
      "CVE-2025-49844 (Lua use-after-free) and four more",
  );
  expect(lines.some((l) => l.startsWith("bootstrap: rebuilding Redis: the cached 8.0.2 is older than 8.0.4"))).toBe(
    true,
  );
  expect(lines.some((l) => l.startsWith(`bootstrap: built Redis ${built!.version} in `))).toBe(true);
  expect(atLeast(built!.version, REDIS_SAFE)).toBe(true);
  expect(built!.server).toBe(join(cacheDir, `redis-${built!.version}`, "bin", "redis-server"));
  // The build makes what the stack runs and nothing more: no benchmark or check tools, no debug info.
  expect(readdirSync(join(cacheDir, `redis-${built!.version}`, "bin")).sort()).toEqual(["redis-cli", "redis-server"]);
  // Upstream's flags give ~6 MB of it; what is left comes from hiredis, which keeps its own -g (~70 KB).
  const sections = Bun.spawnSync(["readelf", "-S", "-W", built!.server]).stdout.toString();
  const debugInfo = /\.debug_info\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)/.exec(sections)?.[1] ?? "0";
  expect(sections).toContain(".text");
  expect(Number.parseInt(debugInfo, 16)).toBeLessThan(1 << 20);

  const port = await freePort();
  server = Bun.spawn(
    [built!.server, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "ignore", "ignore"],
    },
  );
  const redis = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 1 });
  redis.on("error", () => {}); // refused until the server listens; the commands below retry
  try {
    expect(await redis.call("VADD", "v", "VALUES", "2", "1", "0", "east")).toBe(1);
    expect(await redis.call("VADD", "v", "VALUES", "2", "0", "1", "north")).toBe(1);
    expect(await redis.call("VSIM", "v", "VALUES", "2", "0.9", "0.1", "COUNT", "1")).toEqual(["east"]);
    expect(String(await redis.info("server"))).toContain(`redis_version:${built!.version}`);
  } finally {
    redis.disconnect();
  }
}, 600_000);

test("a cached build no older than 8.0.4 is used as it is, without the mirror", () => {
  const { result, lines } = withEnv({ REDIS_URL: undefined, REDIS_SERVER_BIN: undefined, PATH: "/usr/bin:/bin" }, () =>
    ensureRedis({ cacheDir }),
  );
  expect(result!.origin).toStartWith("cached in ");
  expect(lines).toEqual([]);
});

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
