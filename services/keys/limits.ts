import type { Plan } from "../contract/keys";

export interface PlanRateLimits {
  perMinute: number;
  perDay: number; // 0 = unlimited
}

/** Spec section 8.1; self-hosted limits come from config. */
export function planLimits(plan: Plan, selfHosted: PlanRateLimits): PlanRateLimits {
  switch (plan) {
    case "free":
      return { perMinute: 100, perDay: 1_000 };
    case "pro":
      return { perMinute: 1_000, perDay: 100_000 };
    case "enterprise":
      return { perMinute: 10_000, perDay: 0 };
    case "self_hosted":
      return selfHosted;
  }
}

/** A key's own `rate_limit` replaces its plan's per-minute limit; the daily limit stays the plan's. */
export const effectiveLimits = (plan: Plan, rateLimit: number | null, selfHosted: PlanRateLimits): PlanRateLimits => {
  const base = planLimits(plan, selfHosted);
  return rateLimit ? { perMinute: rateLimit, perDay: base.perDay } : base;
};
