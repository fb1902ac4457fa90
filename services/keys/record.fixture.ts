import type { KeyRecord } from "./record";

/** A stored key record, for tests: a live, unlimited `*` key of tenant acme on the free plan; `over` wins. */
export function keyRecordFixture(over: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id: crypto.randomUUID(),
    tenant_id: "acme",
    name: "n",
    prefix: "svc_live_xxxx",
    hash: crypto.randomUUID(),
    scopes: ["*"],
    rate_limit: null,
    plan: "free",
    environment: "live",
    expires_at: null,
    created_at: new Date().toISOString(),
    revoked_at: null,
    root: false,
    ...over,
  };
}
