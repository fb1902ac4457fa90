import type { RedisClient } from "../../../services/kit/redis-functions";
import { ServiceError } from "../../../services/contract/errors";
import { defineLibrary } from "../../../services/kit/redis-functions";
import { errorFields, type Logger } from "../../../services/kit/log";
import { createCoalescer } from "../../../services/kit/coalesce";
import { createLocalWindows, type FallbackPolicy } from "./rate-limit-fallback";

const rateLimitLibrary = await defineLibrary({
  name: "ratelimit",
  dir: new URL("./", import.meta.url),
  functions: { "rate-limit": "write" },
});

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the binding window next frees capacity. */
  reset: number;
  /** Seconds to wait before retrying; only when refused. */
  retryAfter: number;
  /** Redis' clock at the decision (ms), for diagnostics and the model-based test. */
  nowMs: number;
}

export interface Limits {
  perMinute: number;
  perDay: number;
}

/** Most requests of one key decided by one function call. */
const MAX_COALESCED = 256;

export interface LimiterOptions {
  /** What to do while Redis cannot decide (rate-limit-fallback.ts); default: fail closed at once. */
  fallback?: FallbackPolicy;
  /** A Redis answer slower than this counts as no answer. */
  timeoutMs?: number;
  /** While Redis is failing, at most one call tries it per this interval; the rest decide locally. */
  probeEveryMs?: number;
  log?: Logger;
}

const NO_ANSWER = Symbol("no answer");

function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof NO_ANSWER> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => resolve(NO_ANSWER), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Per-key sliding windows in Redis (the function in rate-limit.lua); uses Redis TIME, not ours. While a
 * call for a key is in flight, that key's next requests wait and then go as one call, decided in
 * arrival order exactly as separate calls would be: one function call per batch instead of one per
 * request under load (it was half of Redis's CPU for a GET), and no added wait when idle.
 */
export function createRateLimiter(redis: RedisClient, options: LimiterOptions = {}) {
  const call = rateLimitLibrary.on(redis);
  const run = (key: string, perMinute: number, perDay: number, n: number) =>
    call("rate-limit", [key], [perMinute, perDay, n]) as Promise<number[]>;
  const local = createLocalWindows(options.fallback ?? { maxMs: 0, replicas: 1 });
  const timeoutMs = options.timeoutMs ?? 500;
  const probeEveryMs = options.probeEveryMs ?? 250;
  let probing = false;
  let lastProbe = 0;

  /** Redis's decision for a batch, or null when it gave none (refused, unreachable, too slow, or not asked). */
  async function fromRedis(keyId: string, limits: Limits, n: number): Promise<number[] | null> {
    const failing = local.failing();
    if (failing && (probing || Date.now() - lastProbe < probeEveryMs)) return null;
    if (failing) [probing, lastProbe] = [true, Date.now()];
    try {
      const out = await within(run(`rl:{${keyId}}`, limits.perMinute, limits.perDay, n), timeoutMs);
      if (out === NO_ANSWER) throw new Error(`no answer within ${timeoutMs} ms`);
      if (failing) options.log?.warn("rate limiter: Redis decides again");
      local.recovered();
      return out;
    } catch (err) {
      if (!failing) options.log?.warn("rate limiter: Redis cannot decide, deciding locally", errorFields(err));
      return null;
    } finally {
      if (failing) probing = false;
    }
  }

  function decideLocally(keyId: string, limits: Limits, n: number): (RateLimitResult | Error)[] {
    return Array.from({ length: n }, () => {
      const d = local.decide(keyId, limits.perMinute);
      // Fail closed once the fallback has run out: without the limiter, budgets cannot be enforced.
      if (!d) return new ServiceError("SERVICE_UNAVAILABLE", "Rate limiter unavailable, retry shortly");
      return { ...d, nowMs: Date.now() };
    });
  }

  // The newest limits of the key apply to the whole batch.
  const decisions = createCoalescer<Limits, RateLimitResult>(async (keyId, batch) => {
    const limits = batch.at(-1)!;
    const out = await fromRedis(keyId, limits, batch.length);
    if (!out) return decideLocally(keyId, limits, batch.length);
    const nowMs = out[0]!;
    return batch.map((_, i) => {
      const [allowed, remaining, resetMs, retryMs] = out.slice(1 + 4 * i, 5 + 4 * i) as [
        number,
        number,
        number,
        number,
      ];
      return {
        allowed: allowed === 1,
        limit: limits.perMinute,
        remaining,
        reset: Math.ceil(resetMs / 1000),
        retryAfter: Math.max(1, Math.ceil(retryMs / 1000)),
        nowMs,
      };
    });
  }, MAX_COALESCED);

  return {
    check: (keyId: string, limits: Limits): Promise<RateLimitResult> => decisions.submit(keyId, limits),
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export const rateLimitHeaders = (r: RateLimitResult): Record<string, string> => {
  const h: Record<string, string> = {
    "X-RateLimit-Limit": String(r.limit),
    "X-RateLimit-Remaining": String(r.remaining),
    "X-RateLimit-Reset": String(r.reset),
  };
  if (!r.allowed) h["Retry-After"] = String(r.retryAfter);
  return h;
};
