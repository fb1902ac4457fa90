import { describe, expect, test, beforeAll, afterAll } from "bun:test";
import fc from "fast-check";
import { stackRedis, testStack } from "../../../test/harness";
import type { RedisClient } from "../../../services/kit/redis-functions";
import { primariesOf } from "../../../services/kit/redis-scan";
import { createRateLimiter, type RateLimiter } from "./rate-limit";

/** The same sliding-window rule, written plainly: the model the Lua script must agree with. */
class SlidingWindowModel {
  private state = new Map<string, { idx: number; cur: number; prev: number }>();
  check(now: number, limits: { perMinute: number; perDay: number }): boolean {
    const windows = [
      ["m", 60_000, limits.perMinute],
      ["d", 86_400_000, limits.perDay],
    ] as const;
    const next: [string, { idx: number; cur: number; prev: number }][] = [];
    for (const [name, size, limit] of windows) {
      if (limit <= 0) continue;
      const idx = Math.floor(now / size);
      const s = this.state.get(name);
      let cur = 0;
      let prev = 0;
      if (s && s.idx === idx) ({ cur, prev } = s);
      else if (s && s.idx === idx - 1) prev = s.cur;
      const used = prev * (1 - (now - idx * size) / size) + cur;
      if (used + 1 > limit) return false;
      next.push([name, { idx, cur: cur + 1, prev }]);
    }
    for (const [name, s] of next) this.state.set(name, s);
    return true;
  }
}

let redis: RedisClient;
let limiter: RateLimiter;

beforeAll(async () => {
  const stack = await testStack();
  redis = stackRedis(stack);
  limiter = createRateLimiter(redis);
});
afterAll(() => redis.disconnect());

describe("sliding-window rate limiter (real Redis)", () => {
  test("50 concurrent requests on a key limited to 20/min: exactly 20 allowed, 30 refused", async () => {
    const key = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => limiter.check(key, { perMinute: 20, perDay: 0 })),
    );
    expect(results.filter((r) => r.allowed).length).toBe(20);
    expect(results.filter((r) => !r.allowed).length).toBe(30);
    const refused = results.find((r) => !r.allowed)!;
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.reset * 1000).toBeGreaterThan(refused.nowMs);
  });

  test("concurrent requests of one key are decided in a few script calls, in arrival order", async () => {
    const key = crypto.randomUUID();
    // Summed over every primary: on a Redis Cluster the key's shard counts the calls.
    const evalCalls = async () => {
      let sum = 0;
      for (const node of await primariesOf(redis))
        sum += Number(/cmdstat_fcall:calls=(\d+)/.exec(await node.info("commandstats"))?.[1] ?? 0);
      return sum;
    };
    const before = await evalCalls();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => limiter.check(key, { perMinute: 20, perDay: 0 })),
    );
    // The first goes alone; the 49 that arrive while it is in flight go together (2 calls; the
    // bound leaves room for another client of this Redis running a script meanwhile).
    expect((await evalCalls()) - before).toBeLessThan(5);
    expect(results.map((r) => r.allowed)).toEqual([...Array(20).fill(true), ...Array(30).fill(false)]);
    expect(results.slice(0, 20).map((r) => r.remaining)).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));
  });

  test("refused requests consume nothing: the daily budget is untouched by minute refusals", async () => {
    const key = crypto.randomUUID();
    for (let i = 0; i < 8; i++) await limiter.check(key, { perMinute: 3, perDay: 100 });
    // 3 allowed, 5 refused; the day window must have counted 3 only.
    const fields = await redis.hgetall(`rl:{${key}}`);
    expect(Number(fields.dc)).toBe(3);
    expect(Number(fields.mc)).toBe(3);
  });

  test("the daily window binds when it is the tighter one", async () => {
    const key = crypto.randomUUID();
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await limiter.check(key, { perMinute: 100, perDay: 4 }));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, false, false]);
    expect(results[0]!.remaining).toBe(3);
    expect(results[0]!.limit).toBe(100); // X-RateLimit-Limit is the per-minute limit
  });

  test("remaining counts down to zero", async () => {
    const key = crypto.randomUUID();
    const remaining = [];
    for (let i = 0; i < 5; i++) remaining.push((await limiter.check(key, { perMinute: 4, perDay: 0 })).remaining);
    expect(remaining).toEqual([3, 2, 1, 0, 0]);
  });

  test("property: agrees with the plain sliding-window model for random bursts, one by one or concurrent", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 0, max: 30 }),
        fc.array(fc.record({ n: fc.integer({ min: 1, max: 40 }), concurrent: fc.boolean() }), {
          minLength: 1,
          maxLength: 6,
        }),
        async (perMinute, perDay, bursts) => {
          const key = crypto.randomUUID();
          const model = new SlidingWindowModel();
          const check = () => limiter.check(key, { perMinute, perDay });
          for (const { n, concurrent } of bursts) {
            const results = [];
            if (concurrent) results.push(...(await Promise.all(Array.from({ length: n }, check))));
            else for (let i = 0; i < n; i++) results.push(await check());
            // Each decision's Redis time replays into the model, in arrival order (coalesced ones share it).
            for (const r of results) expect(r.allowed).toBe(model.check(r.nowMs, { perMinute, perDay }));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
