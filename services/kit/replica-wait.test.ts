import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { startRedis, type RedisProcess } from "../../scripts/stack/infra";
import { ServiceError } from "../contract/errors";
import { connectRedis, redisReady } from "./connect";
import { createLogger } from "./log";
import { defineLibrary, type RedisClient } from "./redis-functions";

/**
 * REDIS_WAIT_REPLICAS on a real primary with one replica: a write function returns once the replica has
 * the write, and answers 503 (the write standing on the primary) when no replica confirms in time.
 */
const library = await defineLibrary({
  name: "fixture",
  dir: new URL("./redis-functions.fixture/", import.meta.url),
  functions: { set: "write", echo: "read" },
});
const log = createLogger({ service: "test" }, "error");
const dirs: string[] = [];
let primary: RedisProcess;
let replica: RedisProcess;
const clients: RedisClient[] = [];

async function client(replicaWait?: { replicas: number; timeoutMs: number }): Promise<RedisClient> {
  const redis = connectRedis(primary.url, log, "test", { replicaWait });
  await redisReady(redis, log);
  clients.push(redis);
  return redis;
}

beforeAll(async () => {
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), "replica-wait-"));
    dirs.push(d);
    return d;
  };
  primary = await startRedis({ dataDir: dir() });
  replica = await startRedis({ dataDir: dir(), args: ["--replicaof", "127.0.0.1", String(primary.port)] });
  const probe = new Redis(replica.url);
  for (let i = 0; i < 100 && !/master_link_status:up/.test(await probe.info("replication")); i++) await Bun.sleep(100);
  probe.disconnect();
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await replica?.stop();
  await primary?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("a write returns once the replica has it: the replica reads it at once", async () => {
  const redis = await client({ replicas: 1, timeoutMs: 2000 });
  const replicaReader = new Redis(replica.url);
  try {
    for (let i = 0; i < 20; i++) {
      await library.on(redis)("set", ["wait:k"], [`v${i}`]);
      expect(await replicaReader.get("wait:k")).toBe(`v${i}`);
    }
  } finally {
    replicaReader.disconnect();
  }
});

test(
  "no replica confirming in time: 503 with the counts, the write standing on the primary; " +
    "reads and clients without the option do not wait",
  async () => {
    const waiting = await client({ replicas: 1, timeoutMs: 300 });
    const plain = await client();
    await replica.kill9();
    const started = performance.now();
    const err = (await library
      .on(waiting)("set", ["wait:gone"], ["1"])
      .then(
        () => null,
        (e: unknown) => e,
      )) as ServiceError;
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.code).toBe("SERVICE_UNAVAILABLE");
    expect(err.details).toEqual({ replicas_confirmed: 0, replicas_required: 1 });
    expect(await waiting.get("wait:gone")).toBe("1");
    expect(await library.on(waiting)("echo", ["wait:r"], ["x"])).toEqual(["wait:r", "x"]);
    const fast = performance.now();
    await library.on(plain)("set", ["wait:plain"], ["1"]);
    expect(performance.now() - fast).toBeLessThan(250);
  },
);
