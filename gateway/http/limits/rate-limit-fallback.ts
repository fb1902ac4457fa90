/**
 * How a gateway replica decides alone while Redis cannot decide for it (at maxmemory it refuses the limiter's
 * writes; it may also be down or slow). The policy, in one place:
 *
 * - from the first failure, for at most `maxMs`, each replica keeps its own sliding minute per key at the key's
 *   per-minute limit divided by `replicas` (at least 1), so the replicas together stay near the key's budget;
 *   the per-day window is not counted meanwhile;
 * - after `maxMs` without Redis it fails closed (503): budgets can no longer be trusted;
 * - the first call Redis answers ends it: the windows in Redis decide again, exactly.
 */
export interface FallbackPolicy {
  /** Longest stretch without Redis decided locally; 0 = fail closed at once. */
  maxMs: number;
  /** Gateway replicas sharing each key's budget while Redis is away. */
  replicas: number;
}

const MINUTE_MS = 60_000;

export interface LocalDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the local window next frees capacity. */
  reset: number;
  retryAfter: number;
}

export function createLocalWindows(policy: FallbackPolicy, now: () => number = Date.now) {
  /** Per key: the times (ms) of its requests allowed in the last minute, oldest first. */
  const windows = new Map<string, number[]>();
  let failingSince: number | null = null;

  function prune(t: number) {
    for (const [key, times] of windows)
      if (times.length === 0 || times[times.length - 1]! <= t - MINUTE_MS) windows.delete(key);
  }

  return {
    /** Redis answered: exact again, and the local counts are forgotten. */
    recovered() {
      failingSince = null;
      windows.clear();
    },
    failing: () => failingSince !== null,
    /**
     * Redis could not decide: the local decision for one request, or null once the fallback has run out
     * (fail closed).
     */
    decide(keyId: string, perMinute: number): LocalDecision | null {
      const t = now();
      if (failingSince === null) {
        failingSince = t;
        prune(t);
      }
      if (t - failingSince >= policy.maxMs) return null;
      const limit = Math.max(1, Math.floor(perMinute / Math.max(1, policy.replicas)));
      const times = windows.get(keyId) ?? [];
      while (times.length > 0 && times[0]! <= t - MINUTE_MS) times.shift();
      const allowed = times.length < limit;
      if (allowed) times.push(t);
      windows.set(keyId, times);
      const freesAt = times.length > 0 ? times[0]! + MINUTE_MS : t;
      return {
        allowed,
        limit: perMinute,
        remaining: Math.max(0, limit - times.length),
        reset: Math.ceil(freesAt / 1000),
        retryAfter: Math.max(1, Math.ceil((freesAt - t) / 1000)),
      };
    },
  };
}

export type LocalWindows = ReturnType<typeof createLocalWindows>;
