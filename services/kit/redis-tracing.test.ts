import { expect, test } from "bun:test";
import dc from "node:diagnostics_channel";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import { connectRedis } from "./connect";
import { createLogger } from "./log";

const db = privateRedis("redis-tracing");

test("Redis clients skip ioredis' tracing while nobody subscribes, and trace once someone does", async () => {
  connectRedis("redis://127.0.0.1:1", createLogger({}, "error")).disconnect();
  const channel = dc.tracingChannel("ioredis:command");
  // ioredis traces unless this is false: without the getter (Bun) it is undefined, and every command is traced.
  expect(channel.hasSubscribers).toBe(false);
  const redis = await db.connect();
  const seen: string[] = [];
  const none = () => undefined;
  const handlers = {
    start: (ctx: unknown) => void seen.push((ctx as { command: string }).command),
    end: none,
    asyncStart: none,
    asyncEnd: none,
    error: none,
  };
  channel.subscribe(handlers);
  try {
    expect(channel.hasSubscribers).toBe(true);
    await redis.set("k", "v");
    expect(await redis.get("k")).toBe("v");
    expect(seen).toContain("get");
  } finally {
    channel.unsubscribe(handlers);
  }
  expect(channel.hasSubscribers).toBe(false);
});
