import { Type as T, type Static } from "@sinclair/typebox";
import type { Plan } from "../../contract/keys";

/** A tenant environment's storage limits: memories stored and bytes of their content + metadata; 0 = none. */
export interface StorageLimits {
  memories: number;
  bytes: number;
}

export const NO_LIMITS: StorageLimits = { memories: 0, bytes: 0 };

/** What an operator sets for the plans without fixed limits (memories service config); 0 = none. */
export const QuotaConfig = {
  QUOTA_ENTERPRISE_MEMORIES: T.Integer({ minimum: 0, default: 0 }),
  QUOTA_ENTERPRISE_BYTES: T.Integer({ minimum: 0, default: 0 }),
  QUOTA_SELF_HOSTED_MEMORIES: T.Integer({ minimum: 0, default: 0 }),
  QUOTA_SELF_HOSTED_BYTES: T.Integer({ minimum: 0, default: 0 }),
};
export type QuotaSettings = { [K in keyof typeof QuotaConfig]: Static<(typeof QuotaConfig)[K]> };

/** Every configurable plan unlimited. */
export const NO_PLAN_QUOTAS: QuotaSettings = {
  QUOTA_ENTERPRISE_MEMORIES: 0,
  QUOTA_ENTERPRISE_BYTES: 0,
  QUOTA_SELF_HOSTED_MEMORIES: 0,
  QUOTA_SELF_HOSTED_BYTES: 0,
};

/**
 * The limits of a plan. The plan is the calling key's (the gateway puts it in the caller); keys a tenant
 * mints carry their issuer's plan, so a tenant's keys share one plan unless the root key gave them others.
 * No plan (an internal caller) has no limits. The root key's per-tenant override (tenant settings) wins
 * over these, in the same atomic step as the write (lua/quota.lua).
 */
export function planStorageLimits(plan: Plan | undefined, config: QuotaSettings): StorageLimits {
  switch (plan) {
    case "free":
      return { memories: 10_000, bytes: 50_000_000 };
    case "pro":
      return { memories: 1_000_000, bytes: 5_000_000_000 };
    case "enterprise":
      return { memories: config.QUOTA_ENTERPRISE_MEMORIES, bytes: config.QUOTA_ENTERPRISE_BYTES };
    case "self_hosted":
      return { memories: config.QUOTA_SELF_HOSTED_MEMORIES, bytes: config.QUOTA_SELF_HOSTED_BYTES };
    default:
      return NO_LIMITS;
  }
}
