import { createKey, listKeys, revokeKey, verifyKey, DEFAULT_SCOPES, type Plan } from "../../contract/keys";
import { ServiceError, validationError } from "../../contract/errors";
import { bind, callerOf, type Handler } from "../../kit/handler";
import type { KeyStore } from "../store";
import { toApiKey, type KeyRecord } from "../record";
import { generateSecret, hashSecret, prefixOf } from "../secret";
import { effectiveLimits, type Limits } from "../limits";

export interface KeysDeps {
  store: KeyStore;
  defaultPlan: Plan;
  selfHosted: Limits;
  /** Tells every gateway replica to forget a revoked key. */
  announceRevoked: (hash: string) => void;
  now?: () => Date;
}

export function keyHandlers(deps: KeysDeps) {
  const now = deps.now ?? (() => new Date());

  const create: Handler<typeof createKey> = async (input, ctx) => {
    const caller = callerOf(ctx);
    if (input.tenant_id !== undefined && input.tenant_id !== caller.tenant && !caller.root) {
      throw new ServiceError("FORBIDDEN", "Only the root key may create keys in another tenant");
    }
    const environment = input.environment ?? "live";
    if (caller.env === "test" && environment === "live") {
      throw new ServiceError("FORBIDDEN", "A test key cannot create live keys");
    }
    const at = now();
    if (input.expires_at !== undefined && Date.parse(input.expires_at) <= at.getTime()) {
      throw validationError("expires_at", "future", "expires_at must be in the future");
    }
    const secret = generateSecret(environment);
    const record: KeyRecord = {
      id: crypto.randomUUID(),
      tenant_id: input.tenant_id ?? caller.tenant,
      name: input.name,
      prefix: prefixOf(secret),
      hash: hashSecret(secret),
      scopes: input.scopes ?? [...DEFAULT_SCOPES],
      rate_limit: input.rate_limit ?? null,
      plan: input.plan ?? deps.defaultPlan,
      environment,
      expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null,
      created_at: at.toISOString(),
      revoked_at: null,
      root: false,
    };
    await deps.store.insert(record);
    return { ...toApiKey(record, null), key: secret, message: "Store this key securely: it will not be shown again." };
  };

  const list: Handler<typeof listKeys> = async (input, ctx) => {
    const caller = callerOf(ctx);
    const limit = input.limit ?? 50;
    const offset = input.offset ?? 0;
    const { records, lastUsed, total } = await deps.store.page(caller.tenant, offset, limit);
    // Test keys are a sandbox: they see test keys only.
    const visible = records.map((r, i) => toApiKey(r, lastUsed[i] ?? null));
    const items = caller.env === "test" ? visible.filter((k) => k.environment === "test") : visible;
    return { items, total: caller.env === "test" ? items.length : total, limit, offset };
  };

  const revoke: Handler<typeof revokeKey> = async (input, ctx) => {
    const caller = callerOf(ctx);
    // The root key manages every tenant's keys (it is how tenants are provisioned).
    const tenant = caller.root ? ((await deps.store.tenantOf(input.id)) ?? caller.tenant) : caller.tenant;
    const record = await deps.store.get(tenant, input.id);
    if (!record || (caller.env === "test" && record.environment !== "test")) throw new ServiceError("NOT_FOUND", "API key not found");
    if (!record.revoked_at) {
      record.revoked_at = now().toISOString();
      await deps.store.update(record);
    }
    deps.announceRevoked(record.hash);
    return { id: record.id, revoked: true as const, revoked_at: record.revoked_at };
  };

  const verify: Handler<typeof verifyKey> = async (input) => {
    const record = await deps.store.findByHash(input.hash);
    const expiresAt = record?.expires_at ? Date.parse(record.expires_at) : null;
    if (!record || record.revoked_at || (expiresAt !== null && expiresAt <= now().getTime())) {
      throw new ServiceError("UNAUTHORIZED", "Invalid API key");
    }
    const limits = effectiveLimits(record.plan, record.rate_limit, deps.selfHosted);
    return {
      keyId: record.id,
      tenant: record.tenant_id,
      env: record.environment,
      scopes: record.scopes,
      root: record.root,
      perMinute: limits.perMinute,
      perDay: limits.perDay,
      expiresAt,
    };
  };

  return { create, list, revoke, verify };
}

export const keyBindings = (deps: KeysDeps) => {
  const h = keyHandlers(deps);
  return [bind(createKey, h.create), bind(listKeys, h.list), bind(revokeKey, h.revoke), bind(verifyKey, h.verify)];
};
