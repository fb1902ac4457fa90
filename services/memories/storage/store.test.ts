import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ServiceError } from "../../contract/errors";
import { keyspace } from "../../memory-data/keyspace";
import type { Space } from "../../kit/space";
import { settingsKey } from "../../tenant-settings/settings";
import { fields, memoryStoreFixture, space } from "../store/store.fixture";
import { createStorageStore } from "./store";
import type { StorageLimits } from "./quota";

/**
 * What a tenant environment stores, as the memories functions count it (lua/quota.lua): the counters follow
 * every write and always equal a recount from the records, and a write past a limit changes nothing.
 */
const fx = memoryStoreFixture("memories-storage");
const storage = () => createStorageStore(fx.redis);
const counters = async (s: Space) => {
  const [memories, bytes] = await fx.redis.hmget(keyspace(s).storage, "memories", "bytes");
  return { memories: Number(memories ?? 0), bytes: Number(bytes ?? 0) };
};
const soon = (fromNow: number) => new Date(Date.now() + fromNow).toISOString();
/** The refusal's code and details, or rethrows what is no refusal. */
const refusal = (err: unknown) => {
  if (!(err instanceof ServiceError)) throw err;
  return { code: err.code, details: err.details };
};

describe("storage counters", () => {
  test("bytes are content + metadata as stored (UTF-8); an emptied space keeps no counters", async () => {
    const s = space();
    const a = await fx.create(s, { content: "héllo", metadata: { k: "v" } });
    expect(await counters(s)).toEqual({ memories: 1, bytes: 6 + '{"k":"v"}'.length });
    await fx.store.updateMemory(s, a.memory.id, { content: "hi" }, 64);
    expect(await counters(s)).toEqual({ memories: 1, bytes: 2 + 9 });
    expect(await storage().recount(s)).toEqual(await counters(s));
    await fx.store.deleteMemory(s, a.memory.id, false);
    expect(await fx.redis.exists(keyspace(s).storage)).toBe(0);
    expect(await storage().recount(s)).toEqual({ memories: 0, bytes: 0 });
  });

  test("the admin tool's fix sets drifted counters to the recount; an empty space keeps none", async () => {
    const s = space();
    await fx.create(s, { content: "abc" });
    await fx.redis.hset(keyspace(s).storage, "memories", "9", "bytes", "1");
    expect(await storage().usage(s)).toMatchObject({ count: { memories: 9, bytes: 1 } });
    await storage().setCount(s, await storage().recount(s));
    expect(await counters(s)).toEqual({ memories: 1, bytes: 5 });
    await storage().setCount(s, { memories: 0, bytes: 0 });
    expect(await fx.redis.exists(keyspace(s).storage)).toBe(0);
  });

  test("a create or a growth past a limit is QUOTA_EXCEEDED and writes nothing; shrinking always passes", async () => {
    const s = space();
    const limits: StorageLimits = { memories: 2, bytes: 20 };
    const make = (content: string) =>
      fx.store.createMemory(s, crypto.randomUUID(), fields({ content }), 64, {}, limits);
    const a = await make("0123456789"); // 10 + 2 ("{}")
    expect(await make("x".repeat(7)).catch(refusal)).toEqual({
      code: "QUOTA_EXCEEDED",
      details: { quota: "bytes", limit: 20, used: 12 },
    });
    await make("x".repeat(6));
    expect(await make("y").catch(refusal)).toEqual({
      code: "QUOTA_EXCEEDED",
      details: { quota: "memories", limit: 2, used: 2 },
    });
    const grow = fx.store.updateMemory(s, a.memory.id, { content: "0123456789a" }, 64, limits);
    expect(await grow.catch(refusal)).toMatchObject({ code: "QUOTA_EXCEEDED", details: { quota: "bytes" } });
    expect(await counters(s)).toEqual({ memories: 2, bytes: 20 });
    await fx.store.updateMemory(s, a.memory.id, { content: "0" }, 64, { memories: 1, bytes: 1 });
    expect(await counters(s)).toEqual({ memories: 2, bytes: 11 });
    // The root key's override in the settings wins over the plan's limits; 0 lifts a limit.
    await fx.redis.hset(settingsKey(s), "quota:memories", "0", "quota:bytes", "14");
    await make("z");
    expect(await make("zz").catch(refusal)).toMatchObject({ details: { quota: "bytes", limit: 14, used: 14 } });
    expect(await counters(s)).toEqual(await storage().recount(s));
  });

  test("twenty concurrent creates at quota − 1: exactly one succeeds", async () => {
    const s = space();
    const limits = { memories: 5, bytes: 0 };
    for (let i = 0; i < 4; i++) await fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, {}, limits);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => fx.store.createMemory(s, crypto.randomUUID(), fields(), 64, {}, limits)),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBe(1);
    expect(await counters(s)).toEqual({ memories: 5, bytes: 5 * 3 });
  });

  test("model: after random creates, patches, deletes, cascades and purges the counters equal a recount", async () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("create" as const),
        parent: fc.option(fc.nat(), { nil: null }),
        content: fc.string({ minLength: 1, maxLength: 40, unit: fc.constantFrom("a", "é", "字", "😀") }),
        meta: fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 12 }), { maxKeys: 3 }),
        expires: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant("patch" as const),
        at: fc.nat(),
        content: fc.option(fc.string({ minLength: 1, maxLength: 60 }), { nil: undefined }),
        meta: fc.option(fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 20 }), { maxKeys: 4 }), {
          nil: undefined,
        }),
      }),
      fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), cascade: fc.boolean() }),
      fc.record({ kind: fc.constant("purge" as const) }),
    );
    const limits = fc.record({ memories: fc.integer({ min: 0, max: 12 }), bytes: fc.integer({ min: 0, max: 600 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 14 }),
        limits,
        fc.boolean(),
        async (ops, lim, cascade) => {
          const s = space();
          if (cascade) await fx.redis.hset(settingsKey(s), "retention:cascade", "1");
          const ids: string[] = [];
          const pick = (at: number) => ids[at % ids.length]!;
          for (const o of ops) {
            try {
              if (o.kind === "create") {
                const parent = o.parent === null || ids.length === 0 ? null : pick(o.parent);
                const f = fields({ content: o.content, metadata: o.meta, parent });
                const id = crypto.randomUUID();
                await fx.store.createMemory(s, id, f, 64, o.expires ? { expires_at: soon(15) } : {}, lim);
                ids.push(id);
              } else if (o.kind === "patch" && ids.length > 0) {
                await fx.store.updateMemory(s, pick(o.at), { content: o.content, metadata: o.meta }, 64, lim);
              } else if (o.kind === "delete" && ids.length > 0) {
                await fx.store.deleteMemory(s, pick(o.at), o.cascade);
              } else if (o.kind === "purge") {
                await Bun.sleep(20);
                await fx.store.purgeExpired(s, 100);
              }
            } catch (err) {
              // Refusals (a memory gone, a parent gone, a quota met) change nothing; anything else fails the test.
              expect(["NOT_FOUND", "VALIDATION_ERROR", "QUOTA_EXCEEDED"]).toContain(refusal(err).code);
            }
            expect(await counters(s)).toEqual(await storage().recount(s));
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 60_000);
});
