import { createKey, listKeys, revokeKey, verifyKey, type Plan } from "../../contract/keys";
import { ServiceError, validationError } from "../../contract/errors";
import type { Caller } from "../../contract/op";
import { bind, callerOf, type Handler } from "../../kit/handler";
import type { KeyStore } from "../store";
import { toApiKey, type KeyRecord } from "../record";
import { generateSecret, hashSecret, prefixOf } from "../secret";
import { effectiveLimits, type Limits } from "../limits";
import { resolveGrant, type Issuer } from "../grant";

export interface KeysDeps {
  store: KeyStore;
  defaultPlan: Plan;
  selfHosted: Limits;
  /** Tells every gateway replica to forget a revoked key and end its open streams. */
  announceRevoked: (key: Pick<KeyRecord, "id" | "hash">) => void;
  now?: () => Date;
}

export function keyHandlers(deps: KeysDeps) {
  const now = deps.now ?? (() => new Date());

  /** The minting key: the root key holds everything; any other is read from the store, never from the header. */
  const issuerOf = async (caller: Caller, at: Date): Promise<Issuer> => {
    if (caller.root) {
      const all = { scopes: ["*" as const], rate_limit: null, plan: deps.defaultPlan, expires_at: null };
      return { ...all, tenant_id: caller.tenant, environment: caller.env, root: true };
    }
    const record = await deps.store.get(caller.tenant, caller.keyId);
    const expired = record?.expires_at ? Date.parse(record.expires_at) <= at.getTime() : false;
    if (!record || record.revoked_at || expired) throw new ServiceError("UNAUTHORIZED", "Invalid API key");
    return record;
  };

  const create: Handler<typeof createKey> = async (input, ctx) => {
    const caller = callerOf(ctx);
    const at = now();
    if (input.expires_at !== undefined && Date.parse(input.expires_at) <= at.getTime()) {
      throw validationError("expires_at", "future", "expires_at must be in the future");
    }
    const grant = resolveGrant(await issuerOf(caller, at), input, deps);
    const secret = generateSecret(grant.environment);
    const record: KeyRecord = {
      id: crypto.randomUUID(),
      name: input.name,
      prefix: prefixOf(secret),
      hash: hashSecret(secret),
      ...grant,
      expires_at: grant.expires_at ? new Date(grant.expires_at).toISOString() : null,
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
    if (!record || (caller.env === "test" && record.environment !== "test"))
      throw new ServiceError("NOT_FOUND", "API key not found");
    if (!record.revoked_at) {
      record.revoked_at = now().toISOString();
      await deps.store.update(record);
    }
    deps.announceRevoked(record);
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
      name: record.name,
      prefix: record.prefix,
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
