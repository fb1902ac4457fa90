import type { EndpointRecord } from "./record";

/** An enabled endpoint subscribed to everything, with one secret; `over` changes any field. */
export function endpointFixture(over: Partial<EndpointRecord> = {}): EndpointRecord {
  const at = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    url: "https://example.com/hook",
    description: null,
    events: ["*"],
    enabled: true,
    disabled_reason: null,
    disabled_at: null,
    failing_since: null,
    secret: "whsec_c2VjcmV0",
    previous_secret: null,
    previous_secret_expires: null,
    environment: "live",
    created_at: at,
    updated_at: at,
    ...over,
  };
}
