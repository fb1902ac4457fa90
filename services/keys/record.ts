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
}

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
