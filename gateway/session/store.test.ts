import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import { createSessionStore, randomToken, sessionKey } from "./store";

const server = privateRedis("session-store");
let redis: Redis;
beforeAll(async () => {
  redis = await server.connect();
});

const record = { keyHash: "a".repeat(64), keyId: "k1", tenant: "acme", csrfToken: randomToken() };

describe("dashboard session store", () => {
  test("stores only a hash of the session id, and the key's id and hash", async () => {
    const store = createSessionStore(redis, { idleMs: 60_000 });
    const { id } = await store.create(record);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const keys = await redis.keys("dsess:*");
    expect(keys).toContain(sessionKey(id));
    expect(keys.join()).not.toContain(id);
    const stored = await redis.hgetall(sessionKey(id));
    expect(Object.values(stored).join()).not.toContain(id);
    expect(stored).toMatchObject({ kh: record.keyHash, kid: "k1", t: "acme", csrf: record.csrfToken });
    expect(await store.use(id)).toMatchObject(record);
  });

  test("a session ends after idleMs without use; each use starts the idle time again", async () => {
    const store = createSessionStore(redis, { idleMs: 400 });
    const { id } = await store.create(record);
    for (let i = 0; i < 4; i++) {
      await Bun.sleep(250);
      expect(await store.use(id)).not.toBeNull(); // 1 s in all, alive: renewed every 250 ms
    }
    await Bun.sleep(600);
    expect(await store.use(id)).toBeNull();
    expect(await redis.exists(sessionKey(id))).toBe(0);
  });

  test("end: the id works nowhere afterwards; unknown and malformed ids are no session", async () => {
    const store = createSessionStore(redis, { idleMs: 60_000 });
    const { id } = await store.create(record);
    await store.end(id);
    expect(await store.use(id)).toBeNull();
    expect(await store.use(randomToken())).toBeNull();
    expect(await store.use("not-a-session-id")).toBeNull();
    expect(await store.use(`${id.slice(0, 42)}*`)).toBeNull();
  });

  test("Redis failing is SERVICE_UNAVAILABLE, not an unexpected error", async () => {
    const broken = {
      multi: () => ({ hgetall: () => ({ pexpire: () => ({ exec: () => Promise.reject(new Error("down")) }) }) }),
    };
    const store = createSessionStore(broken as never, { idleMs: 60_000 });
    await expect(store.use(randomToken())).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });
});
