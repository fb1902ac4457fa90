import type { ApiKey, Plan } from "../contract/keys";
import type { Scope } from "../contract/op";

/** What the keys service stores per key: the public fields plus the SHA-256 of the secret. */
export interface KeyRecord {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: Scope[];
  rate_limit: number | null;
  plan: Plan;
  environment: "live" | "test";
  expires_at: string | null;
  created_at: string;
  revoked_at: string | null;
  root: boolean;
  /**
   * The secret a rotation replaced, while it still works (a grace period): its SHA-256 and when it stops.
   * Absent or null: the key has one secret.
   */
  previous?: { hash: string; expires_at: string } | null;
}

/** The hashes that lead to this record: its secret's, and the previous secret's while one is kept. */
export const hashesOf = (rec: KeyRecord): string[] => (rec.previous ? [rec.hash, rec.previous.hash] : [rec.hash]);

export const toApiKey = (rec: KeyRecord, lastUsed: string | null): ApiKey => ({
  id: rec.id,
  name: rec.name,
  prefix: rec.prefix,
  scopes: rec.scopes,
  rate_limit: rec.rate_limit,
  plan: rec.plan,
  environment: rec.environment,
  tenant_id: rec.tenant_id,
  expires_at: rec.expires_at,
  created_at: rec.created_at,
  last_used_at: lastUsed,
  revoked_at: rec.revoked_at,
});

/**
 * When the secret of SHA-256 `hash` stops working (ms since epoch; null = never), or undefined when
 * `rec` holds no such secret (a pointer a rotation has not removed yet). A previous secret stops at
 * the end of its grace, or with the key if that comes first.
 */
export function secretEnd(rec: KeyRecord, hash: string): number | null | undefined {
  const keyEnd = rec.expires_at ? Date.parse(rec.expires_at) : null;
  if (hash === rec.hash) return keyEnd;
  if (rec.previous?.hash !== hash) return undefined;
  const graceEnd = Date.parse(rec.previous.expires_at);
  return keyEnd === null ? graceEnd : Math.min(keyEnd, graceEnd);
}
