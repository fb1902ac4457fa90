import type Redis from "ioredis";
import { ServiceError } from "../../services/contract/errors";

const SCRIPT = await Bun.file(new URL("./rate-limit.lua", import.meta.url)).text();

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

/** Per-key sliding windows in Redis (script in rate-limit.lua); uses Redis TIME, not ours. */
export function createRateLimiter(redis: Redis) {
  redis.defineCommand("slidingWindow", { numberOfKeys: 1, lua: SCRIPT });
  const run = (redis as unknown as { slidingWindow(key: string, m: number, d: number): Promise<number[]> }).slidingWindow.bind(redis);
  return {
    async check(keyId: string, limits: Limits): Promise<RateLimitResult> {
      let out: number[];
      try {
        out = await run(`rl:{${keyId}}`, limits.perMinute, limits.perDay);
      } catch {
        // Fail closed: without the limiter we cannot enforce budgets.
        throw new ServiceError("SERVICE_UNAVAILABLE", "Rate limiter unavailable, retry shortly");
      }
      const [allowed, remaining, resetMs, retryMs, nowMs] = out as [number, number, number, number, number];
      return {
        allowed: allowed === 1,
        limit: limits.perMinute,
        remaining,
        reset: Math.ceil(resetMs / 1000),
        retryAfter: Math.max(1, Math.ceil(retryMs / 1000)),
        nowMs,
      };
    },
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
