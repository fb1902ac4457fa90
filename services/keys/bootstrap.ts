import { API_KEY_RE } from "../contract/keys";
import type { KeyStore } from "./store";
import type { KeyRecord } from "./record";
import { hashSecret, prefixOf } from "./secret";
import type { Logger } from "../kit/log";

export const ROOT_TENANT = "default";

/**
 * Registers BOOTSTRAP_ADMIN_KEY as the root key of tenant `default` with scopes ["*"]. A changed
 * bootstrap key revokes the previous one, so rotating it is just a restart with a new value.
 */
export async function registerRootKey(
  store: KeyStore,
  secret: string,
  log: Logger,
  announceRevoked: (key: Pick<KeyRecord, "id" | "hash">) => void,
): Promise<void> {
  const match = API_KEY_RE.exec(secret);
  if (!match || match[1] !== "live")
    throw new Error("BOOTSTRAP_ADMIN_KEY must be a svc_live_ key of 32 base64url characters");
  const hash = hashSecret(secret);
  const existing = await store.findByHash(hash);
  if (existing && !existing.revoked_at) return;
  const previous = await store.rootPointer();
  if (previous) {
    const [tenant, id] = previous.split(" ");
    const old = await store.get(tenant!, id!);
    if (old && !old.revoked_at) {
      await store.update({ ...old, revoked_at: new Date().toISOString() });
      announceRevoked(old); // running gateways drop the old root key at once
    }
  }
  const id = crypto.randomUUID();
  await store.insert({
    id,
    tenant_id: ROOT_TENANT,
    name: "root (bootstrap)",
    prefix: prefixOf(secret),
    hash,
    scopes: ["*"],
    rate_limit: null,
    plan: "enterprise",
    environment: "live",
    expires_at: null,
    created_at: new Date().toISOString(),
    revoked_at: null,
    root: true,
  });
  await store.setRootPointer(`${ROOT_TENANT} ${id}`);
  log.info("root key registered", { key_id: id, prefix: prefixOf(secret) });
}
