import {
  createKey,
  getKey,
  listKeys,
  revokeKey,
  rotateKey,
  updateKey,
  verifyKey,
  type KeyChanged,
  type Plan,
} from "../../contract/keys";
import { notFound, ServiceError, validationError } from "../../contract/errors";
import type { Caller } from "../../contract/op";
import { bind, requireCaller, type Handler } from "../../kit/handler";
import type { KeyStore } from "../store";
import { hashesOf, secretEnd, toApiKey, type KeyRecord } from "../record";
import { generateSecret, hashSecret, prefixOf } from "../secret";
import { effectiveLimits, type PlanRateLimits } from "../limits";
import { refuseBeyondIssuer, resolveGrant, type Issuer } from "../grant";
import { loadIssuer } from "./issuer";

export interface KeysDeps {
  store: KeyStore;
  defaultPlan: Plan;
  selfHosted: PlanRateLimits;
  /** Tells every gateway replica to forget a revoked key and end its open streams. */
  announceRevoked: (key: Pick<KeyRecord, "id" | "hash">) => void;
  /** Tells every gateway replica that these secrets of a key verify differently now. */
  announceChanged: (notice: KeyChanged) => void;
  now?: () => Date;
}

const SHOW_ONCE = "Store this key securely: it will not be shown again.";
/** Writes of one key that keep meeting a concurrent write give up after this many tries. */
const MAX_TRIES = 10;

export function keyHandlers(deps: KeysDeps) {
  const now = deps.now ?? (() => new Date());

  const issuerOf = async (caller: Caller, at: Date): Promise<Issuer> =>
    (await loadIssuer(deps.store, deps.defaultPlan, caller, at)).issuer;

  /**
   * A key the caller manages, else one 404 for unknown, another tenant's and (for a test key) live keys.
   * The root key manages every tenant's keys (it is how tenants are provisioned).
   */
  const visibleKey = async (caller: Caller, id: string): Promise<KeyRecord> => {
    const tenant = caller.root ? ((await deps.store.tenantOf(id)) ?? caller.tenant) : caller.tenant;
    const record = await deps.store.get(tenant, id);
    if (!record || (caller.env === "test" && record.environment !== "test")) throw notFound("API key");
    return record;
  };

  /**
   * Writes `next(record)` in place of the key's record. If another write lands first, `next` runs again
   * on the fresh record, so no concurrent change (a revocation above all) is ever overwritten. A `next`
   * that returns the record it got writes nothing.
   */
  const change = async (caller: Caller, id: string, next: (rec: KeyRecord) => KeyRecord) => {
    for (let tries = 1; ; tries++) {
      const before = await visibleKey(caller, id);
      const after = next(before);
      if (after === before || (await deps.store.replace(before, after))) return { before, after };
      if (tries === MAX_TRIES) throw new ServiceError("SERVICE_UNAVAILABLE", "The API key kept changing; retry");
    }
  };

  /**
   * The root key is BOOTSTRAP_ADMIN_KEY's, changed (revoked included) only by configuration: revoked through
   * the API, it would lock the operator out until a restart.
   */
  const notRoot = (rec: KeyRecord) => {
    if (rec.root) throw new ServiceError("FORBIDDEN", "The root key is set by BOOTSTRAP_ADMIN_KEY: change it there");
  };

  /** Revoked keys stay as they are; so does the root key. */
  const changeable = (rec: KeyRecord) => {
    notRoot(rec);
    if (rec.revoked_at) throw new ServiceError("FORBIDDEN", "The API key is revoked: it can no longer be changed");
  };

  const mustBeFuture = (expiresAt: string | null | undefined, at: Date) => {
    if (expiresAt != null && Date.parse(expiresAt) <= at.getTime()) {
      throw validationError("expires_at", "future", "expires_at must be in the future");
    }
  };

  const publicKey = async (rec: KeyRecord) => toApiKey(rec, await deps.store.lastUsed(rec.tenant_id, rec.id));

  const create: Handler<typeof createKey> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    const at = now();
    mustBeFuture(input.expires_at, at);
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
    return { ...toApiKey(record, null), key: secret, message: SHOW_ONCE };
  };

  const list: Handler<typeof listKeys> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    const limit = input.limit ?? 50;
    const offset = input.offset ?? 0;
    const { records, lastUsed, total } = await deps.store.page(caller.tenant, offset, limit);
    // Test keys are a sandbox: they see test keys only.
    const visible = records.map((r, i) => toApiKey(r, lastUsed[i] ?? null));
    const items = caller.env === "test" ? visible.filter((k) => k.environment === "test") : visible;
    return { items, total: caller.env === "test" ? items.length : total, limit, offset };
  };

  const get: Handler<typeof getKey> = async (input, ctx) => publicKey(await visibleKey(requireCaller(ctx), input.id));

  /**
   * Only the fields sent change, each checked by the minting rule as if a key were minted with it: a
   * key can narrow any key of its tenant, never widen one beyond itself (itself included).
   */
  const update: Handler<typeof updateKey> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    const at = now();
    const { id, name, scopes, rate_limit, expires_at } = input;
    mustBeFuture(expires_at, at);
    const issuer = await issuerOf(caller, at);
    const { before, after } = await change(caller, id, (rec) => {
      changeable(rec);
      refuseBeyondIssuer(issuer, { scopes, rate_limit, expires_at }, rec.plan, deps);
      const next = { ...rec };
      if (name !== undefined) next.name = name;
      if (scopes !== undefined) next.scopes = scopes;
      if (rate_limit !== undefined) next.rate_limit = rate_limit;
      if (expires_at !== undefined) next.expires_at = expires_at && new Date(expires_at).toISOString();
      return JSON.stringify(next) === JSON.stringify(rec) ? rec : next;
    });
    if (after !== before) deps.announceChanged({ key_id: after.id, hashes: hashesOf(after) });
    return publicKey(after);
  };

  /**
   * A new secret for the same key. Whoever gets it holds everything the key holds, so the caller must be
   * able to mint such a key (the minting rule never refuses a key its own fields: an `admin` key can always
   * rotate itself). The secret it replaces stops at once, or
   * after `grace_seconds`; a secret kept from an earlier rotation stops at once.
   */
  const rotate: Handler<typeof rotateKey> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    const issuer = await issuerOf(caller, now());
    const grace = input.grace_seconds ?? 0;
    let secret = "";
    const { before, after } = await change(caller, input.id, (rec) => {
      changeable(rec);
      const { tenant_id, environment, scopes, plan, rate_limit, expires_at } = rec;
      refuseBeyondIssuer(issuer, { tenant_id, environment, scopes, plan, rate_limit, expires_at }, plan, deps);
      secret = generateSecret(rec.environment);
      const ends = new Date(now().getTime() + grace * 1000).toISOString();
      const previous = grace > 0 ? { hash: rec.hash, expires_at: ends } : null;
      return { ...rec, prefix: prefixOf(secret), hash: hashSecret(secret), previous };
    });
    deps.announceChanged({ key_id: after.id, hashes: hashesOf(before) });
    const until = after.previous ? ` The previous secret works until ${after.previous.expires_at}.` : "";
    return { ...(await publicKey(after)), key: secret, message: SHOW_ONCE + until };
  };

  /** Ends every secret of the key at once (a previous one still in its grace included); never the root key's. */
  const revoke: Handler<typeof revokeKey> = async (input, ctx) => {
    const { after } = await change(requireCaller(ctx), input.id, (rec) => {
      notRoot(rec);
      return rec.revoked_at ? rec : { ...rec, revoked_at: now().toISOString() };
    });
    for (const hash of hashesOf(after)) deps.announceRevoked({ id: after.id, hash });
    return { id: after.id, revoked: true as const, revoked_at: after.revoked_at! };
  };

  const verify: Handler<typeof verifyKey> = async (input) => {
    const record = await deps.store.findByHash(input.hash);
    const expiresAt = record ? secretEnd(record, input.hash) : undefined;
    if (
      !record ||
      record.revoked_at ||
      expiresAt === undefined ||
      (expiresAt !== null && expiresAt <= now().getTime())
    ) {
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
      plan: record.plan,
      perMinute: limits.perMinute,
      perDay: limits.perDay,
      expiresAt,
      replaced: input.hash !== record.hash,
    };
  };

  return { create, list, get, update, rotate, revoke, verify };
}

export const keyBindings = (deps: KeysDeps) => {
  const h = keyHandlers(deps);
  return [
    bind(createKey, h.create),
    bind(listKeys, h.list),
    bind(getKey, h.get),
    bind(updateKey, h.update),
    bind(rotateKey, h.rotate),
    bind(revokeKey, h.revoke),
    bind(verifyKey, h.verify),
  ];
};
