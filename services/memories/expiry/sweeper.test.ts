import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { createLogger } from "../../kit/log";
import type { Space } from "../../kit/space";
import { EXPIRY_REGISTRY } from "../../memory-data/keyspace";
import type { ChangePublisher, MemoryChange } from "../../memory-data/publisher";
import { createMemoryStore, type MemoryStore } from "../store";
import { fields } from "../store/store.fixture";
import { startSweeper } from "./sweeper";

/** The sweeper's ticks against a real, private Redis, with a publisher that records what it is given. */
const db = privateRedis("memories-sweeper");
let redis: Redis;
let store: MemoryStore;
beforeAll(async () => {
  redis = await db.connect();
  store = createMemoryStore(redis);
});

let n = 0;
const space = (): Space => ({ tenant: `sweep${++n}`, env: "test" });
const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
const log = createLogger({}, "error");

function recorder() {
  const published: { space: Space; keyId: string; changes: MemoryChange[] }[] = [];
  const changes: ChangePublisher = {
    committed: async (ctx, list) => {
      published.push({
        space: { tenant: ctx.caller!.tenant, env: ctx.caller!.env },
        keyId: ctx.caller!.keyId,
        changes: list,
      });
    },
  };
  return { published, changes };
}

/** A memory with an expiry, registered as the create handler registers it. */
async function expiring(s: Space, inMs: number, over: Record<string, unknown> = {}) {
  const row = await store.createMemory(s, crypto.randomUUID(), fields(over), 64, { expires_at: soon(inMs) });
  await store.registerExpiry(s, Date.parse(row.memory.expires_at!));
  return row;
}

describe("expiry sweeper", () => {
  test("a tick purges the due spaces, reports the deletions as expired, and leaves the rest for later", async () => {
    await redis.del(EXPIRY_REGISTRY.due, EXPIRY_REGISTRY.gen);
    const [a, b] = [space(), space()];
    const gone = await expiring(a, 30);
    const kid = await store.createMemory(a, crypto.randomUUID(), fields({ parent: gone.memory.id }), 64);
    const later = await expiring(b, 60_000);
    await Bun.sleep(60);
    const { published, changes } = recorder();
    const sweeper = startSweeper({ store, changes, log }, { intervalMs: 60_000, scanCount: 0 });
    try {
      // The first tick runs as it starts: wait for its publication (bounded), not a fixed time.
      for (let i = 0; i < 100 && published.length === 0; i++) await Bun.sleep(50);
      expect(published).toEqual([
        {
          space: a,
          keyId: "expiry-sweeper",
          changes: [
            { type: "deleted", id: gone.memory.id, version: 2, reason: "expired" },
            {
              type: "updated",
              memory: expect.objectContaining({ id: kid.memory.id, parent_memory_id: null }),
              changed: ["parent_memory_id"],
            },
          ],
        },
      ]);
      expect(await redis.zscore(EXPIRY_REGISTRY.due, `{${a.tenant}:test}`)).toBeNull();
      expect(Number(await redis.zscore(EXPIRY_REGISTRY.due, `{${b.tenant}:test}`))).toBe(
        Date.parse(later.memory.expires_at!),
      );
      expect(await sweeper.tick()).toBe(0);
    } finally {
      await sweeper.stop();
    }
  });

  test("work per tick is bounded: spaces per tick, memories per space; the rest comes next tick", async () => {
    await redis.del(EXPIRY_REGISTRY.due, EXPIRY_REGISTRY.gen);
    const spaces = [space(), space(), space()];
    for (const s of spaces) for (let i = 0; i < 5; i++) await expiring(s, 20);
    await Bun.sleep(40);
    const { published, changes } = recorder();
    const opts = { intervalMs: 60_000, spacesPerTick: 2, purgePerSpace: 3, scanCount: 0 };
    const sweeper = startSweeper({ store, changes, log }, opts);
    try {
      await Bun.sleep(50);
      // The tick it starts with: the two spaces due first, 3 memories each.
      expect(published.map((p) => [p.space, p.changes.length])).toEqual([
        [spaces[0], 3],
        [spaces[1], 3],
      ]);
      // Spaces with more to do are due again at once: the rest of the first two, then the third, twice.
      const counts = [];
      for (let i = 0; i < 4; i++) counts.push(await sweeper.tick());
      expect(counts).toEqual([4, 3, 2, 0]);
      expect(
        (await store.listMemories(spaces[0]!, { limit: 50, offset: 0, sort: "created_at", order: "desc" })).total,
      ).toBe(0);
    } finally {
      await sweeper.stop();
    }
  });

  test("a space leased by another replica is left alone; a failed purge leaves its lease to run out", async () => {
    await redis.del(EXPIRY_REGISTRY.due, EXPIRY_REGISTRY.gen);
    const s = space();
    await expiring(s, 10);
    await Bun.sleep(30);
    // Another replica holds it.
    expect((await store.claimDue(10, 60_000)).length).toBe(1);
    const { published, changes } = recorder();
    const sweeper = startSweeper({ store, changes, log }, { intervalMs: 60_000, scanCount: 0 });
    try {
      await Bun.sleep(50);
      expect(await sweeper.tick()).toBe(0);
      expect(published).toEqual([]);
    } finally {
      await sweeper.stop();
    }
    await redis.zadd(EXPIRY_REGISTRY.due, 0, `{${s.tenant}:test}`);
    const failing: MemoryStore = { ...store, purgeExpired: async () => Promise.reject(new Error("boom")) };
    const broken = startSweeper(
      { store: failing, changes, log },
      { intervalMs: 60_000, leaseMs: 40_000, scanCount: 0 },
    );
    await Bun.sleep(50);
    await broken.stop();
    expect(Number(await redis.zscore(EXPIRY_REGISTRY.due, `{${s.tenant}:test}`))).toBeGreaterThan(Date.now() + 30_000);
  });

  test("as it starts, it walks the keyspace and registers spaces whose registration was lost", async () => {
    await redis.del(EXPIRY_REGISTRY.due, EXPIRY_REGISTRY.gen);
    const s = space();
    const row = await store.createMemory(s, crypto.randomUUID(), fields(), 64, { expires_at: soon(20) });
    await Bun.sleep(40);
    const { published, changes } = recorder();
    const sweeper = startSweeper({ store, changes, log }, { intervalMs: 60_000, scanCount: 1000 });
    try {
      await Bun.sleep(50);
      // The first tick found it on its walk; the next one purges it.
      expect(published).toEqual([]);
      await sweeper.tick();
      expect(published.filter((p) => p.space.tenant === s.tenant).flatMap((p) => p.changes)).toEqual([
        { type: "deleted", id: row.memory.id, version: 2, reason: "expired" },
      ]);
    } finally {
      await sweeper.stop();
    }
  });
});
