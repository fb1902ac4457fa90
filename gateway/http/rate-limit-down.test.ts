import { expect, test } from "bun:test";
import Redis from "ioredis";
import { freePort } from "../../scripts/stack/infra";
import { createRateLimiter } from "./rate-limit";

test("Redis unreachable: the limiter fails closed with SERVICE_UNAVAILABLE, fast", async () => {
  const port = await freePort(); // nothing listens there
  const redis = new Redis({
    port,
    host: "127.0.0.1",
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
    retryStrategy: () => 100,
  });
  redis.on("error", () => undefined);
  const limiter = createRateLimiter(redis);
  const started = performance.now();
  await expect(limiter.check("k", { perMinute: 10, perDay: 0 })).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  expect(performance.now() - started).toBeLessThan(1000);
  redis.disconnect();
});
