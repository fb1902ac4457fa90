import { ServiceError } from "../../contract/errors";
import type { Plan } from "../../contract/keys";
import type { Caller } from "../../contract/op";
import type { Issuer } from "../grant";
import type { KeyRecord } from "../record";
import type { KeyStore } from "../store";

/**
 * The minting key and its stored record: the root key holds everything; any other is read from the store,
 * never from the header. A key revoked or expired since the gateway verified it mints nothing.
 */
export async function loadIssuer(
  store: KeyStore,
  defaultPlan: Plan,
  caller: Caller,
  at: Date,
): Promise<{ issuer: Issuer; record: KeyRecord | null }> {
  const record = await store.get(caller.tenant, caller.keyId);
  if (caller.root) {
    const all = { scopes: ["*" as const], rate_limit: null, plan: defaultPlan, expires_at: null };
    return { issuer: { ...all, tenant_id: caller.tenant, environment: caller.env, root: true }, record };
  }
  const expired = record?.expires_at ? Date.parse(record.expires_at) <= at.getTime() : false;
  if (!record || record.revoked_at || expired) throw new ServiceError("UNAUTHORIZED", "Invalid API key");
  return { issuer: record, record };
}
