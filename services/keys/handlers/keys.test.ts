import { describe, expect, test } from "bun:test";
import type { HandlerContext } from "../../kit/handler";
import { createLogger } from "../../kit/log";
import type { KeyStore } from "../store";
import type { KeyRecord } from "../record";
import { hashSecret } from "../secret";
import { keyRecordFixture } from "../record.fixture";
import type { KeyChanged } from "../../contract/keys";
import type { Scope } from "../../contract/op";
import { keyHandlers } from "./keys";

/** Handler unit tests: the rules of the keys handlers, over a plain in-memory store. */
function memoryStore() {
  const byId = new Map<string, KeyRecord>();
  const store = {
    insert: async (r: KeyRecord) => void byId.set(r.id, { ...r }),
    get: async (tenant: string, id: string) => {
      const r = byId.get(id);
      return r && r.tenant_id === tenant ? { ...r } : null;
    },
    update: async (r: KeyRecord) => void byId.set(r.id, { ...r }),
    /** Compare and set, as the Redis store does it. */
    replace: async (before: KeyRecord, after: KeyRecord) => {
      if (JSON.stringify(byId.get(before.id)) !== JSON.stringify(before)) return false;
      byId.set(after.id, { ...after });
      return true;
    },
    lastUsed: async () => null,
    findByHash: async (hash: string) =>
      [...byId.values()].find((r) => r.hash === hash || r.previous?.hash === hash) ?? null,
    tenantOf: async (id: string) => byId.get(id)?.tenant_id ?? null,
    page: async (tenant: string, offset: number, limit: number) => {
      const records = [...byId.values()].filter((r) => r.tenant_id === tenant).reverse();
      return {
        records: records.slice(offset, offset + limit),
        lastUsed: records.map(() => null),
        total: records.length,
      };
    },
  };
  return { store: store as unknown as KeyStore, byId };
}

const ctx = (over: Partial<HandlerContext["caller"] & object> = {}): HandlerContext => ({
  caller: { tenant: "acme", env: "live", keyId: "k0", scopes: ["admin"], ...over },
  requestId: "r",
  log: createLogger({}, "error"),
});

function setup() {
  const { store, byId } = memoryStore();
  const revoked: { id: string; hash: string }[] = [];
  const changed: KeyChanged[] = [];
  const selfHosted = { perMinute: 1000, perDay: 0 };
  const announceRevoked = ({ id, hash }: { id: string; hash: string }) => void revoked.push({ id, hash });
  const announceChanged = (notice: KeyChanged) => void changed.push(notice);
  /** The handlers' clock: real time, moved on by `clock.skip`. */
  const clock = { skip: 0 };
  const now = () => new Date(Date.now() + clock.skip);
  const h = keyHandlers({ store, defaultPlan: "free", selfHosted, announceRevoked, announceChanged, now });
  /** A stored minting key (the handler reads the issuer from the store) and the context of a call made with it. */
  const minter = (over: Partial<KeyRecord> = {}): HandlerContext => {
    const record = keyRecordFixture({ name: "minter", ...over });
    byId.set(record.id, record);
    return ctx({ tenant: record.tenant_id, env: record.environment, keyId: record.id, scopes: record.scopes });
  };
  return { h, byId, revoked, changed, minter, clock, store };
}

describe("keys handlers", () => {
  test("create: secret shape, default scopes, only the hash stored, plan limits on verify", async () => {
    const { h, byId, minter } = setup();
    const key = await h.create({ name: "n" }, minter());
    expect(key.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(key.scopes).toEqual(["memories:read", "memories:write", "search:read"]);
    const stored = byId.get(key.id)!;
    expect(JSON.stringify(stored)).not.toContain(key.key);
    expect(stored.hash).toBe(hashSecret(key.key));
    expect(await h.verify({ hash: stored.hash }, ctx())).toMatchObject({
      keyId: key.id,
      name: "n",
      prefix: key.prefix,
      tenant: "acme",
      env: "live",
      plan: "free",
      perMinute: 100,
      perDay: 1000,
    });
  });

  test("a key's rate_limit replaces the per-minute limit; the daily limit stays the plan's", async () => {
    const { h, minter } = setup();
    const key = await h.create({ name: "n", rate_limit: 7 }, minter());
    expect(await h.verify({ hash: hashSecret(key.key) }, ctx())).toMatchObject({ perMinute: 7, perDay: 1000 });
  });

  test("tenant_id: FORBIDDEN unless root; root mints in another tenant", async () => {
    const { h, minter } = setup();
    await expect(h.create({ name: "n", tenant_id: "other" }, minter())).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await h.create({ name: "n", tenant_id: "other" }, ctx({ root: true }))).tenant_id).toBe("other");
  });

  test("a test key cannot create live keys; expires_at must be in the future", async () => {
    const { h, minter } = setup();
    await expect(h.create({ name: "n" }, minter({ environment: "test" }))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.create({ name: "n", expires_at: "2000-01-01T00:00:00Z" }, minter())).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "expires_at", constraint: "future" },
    });
  });

  test("revoke: announces the id and hash, verify then fails; another tenant's key is NOT_FOUND", async () => {
    const { h, revoked, minter } = setup();
    const key = await h.create({ name: "n" }, minter());
    await expect(h.revoke({ id: key.id }, ctx({ tenant: "other" }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    const done = await h.revoke({ id: key.id }, ctx());
    expect(done).toMatchObject({ id: key.id, revoked: true });
    expect(revoked).toEqual([{ id: key.id, hash: hashSecret(key.key) }]);
    await expect(h.verify({ hash: hashSecret(key.key) }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("verify: unknown and expired keys are UNAUTHORIZED", async () => {
    const { h, byId, minter } = setup();
    await expect(h.verify({ hash: "0".repeat(64) }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const key = await h.create({ name: "n", expires_at: new Date(Date.now() + 60_000).toISOString() }, minter());
    byId.get(key.id)!.expires_at = new Date(Date.now() - 1000).toISOString();
    await expect(h.verify({ hash: hashSecret(key.key) }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("list: a test key sees only test keys", async () => {
    const { h, minter } = setup();
    await h.create({ name: "live" }, minter());
    await h.create({ name: "sandbox", environment: "test" }, minter());
    const page = await h.list({ limit: 50, offset: 0 }, ctx({ env: "test" }));
    expect(page.items.map((k) => k.name)).toEqual(["sandbox"]);
  });

  test("mint: the issuer is read from the store; a revoked or expired issuer is UNAUTHORIZED", async () => {
    const { h, byId, minter } = setup();
    const admin = minter({ scopes: ["admin"] });
    const claimed = { ...admin, caller: { ...admin.caller!, scopes: ["*" as const] } }; // a header never widens a key
    await expect(h.create({ name: "n", scopes: ["*"] }, claimed)).rejects.toMatchObject({ code: "FORBIDDEN" });
    byId.get(admin.caller!.keyId)!.revoked_at = new Date().toISOString();
    await expect(h.create({ name: "n", scopes: ["admin"] }, admin)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const late = minter({ expires_at: new Date(Date.now() + 60_000).toISOString() });
    byId.get(late.caller!.keyId)!.expires_at = new Date(Date.now() - 1).toISOString();
    await expect(h.create({ name: "n" }, late)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("mint: a free admin key cannot mint *, enterprise or a higher limit; the new key gets its plan", async () => {
    const { h, byId, minter } = setup();
    const admin = minter({ scopes: ["admin"], plan: "free" });
    const escalate = { name: "n", scopes: ["*" as const], plan: "enterprise" as const, rate_limit: 10_000_000 };
    await expect(h.create(escalate, admin)).rejects.toMatchObject({
      code: "FORBIDDEN",
      details: { field: "scopes", refused: { scopes: ["*"], plan: "enterprise", rate_limit: 10_000_000 } },
    });
    const ok = await h.create({ name: "n", scopes: ["admin"] }, admin);
    expect(ok).toMatchObject({ plan: "free", scopes: ["admin"] });
    expect(await h.verify({ hash: byId.get(ok.id)!.hash }, ctx())).toMatchObject({ perMinute: 100, perDay: 1000 });
  });

  test("mint: the root key grants any plan, scopes and limit, in any tenant", async () => {
    const { h } = setup();
    const wide = { scopes: ["*" as const], plan: "enterprise" as const, rate_limit: 10_000_000, tenant_id: "t2" };
    const key = await h.create({ name: "n", ...wide }, ctx({ root: true }));
    expect(key).toMatchObject({ scopes: ["*"], plan: "enterprise", rate_limit: 10_000_000, tenant_id: "t2" });
  });
});

describe("managing a key: get, update, rotate", () => {
  const later = (ms: number) => new Date(Date.now() + ms).toISOString();

  test("get: the listed record, no hash or secret; another tenant's or (for a test key) a live key: 404", async () => {
    const { h, minter } = setup();
    const admin = minter();
    const key = await h.create({ name: "n" }, admin);
    const got = await h.get({ id: key.id }, admin);
    expect(got).toEqual((await h.list({ limit: 50, offset: 0 }, admin)).items.find((k) => k.id === key.id)!);
    expect(JSON.stringify(got)).not.toContain(hashSecret(key.key));
    expect(Object.keys(got)).not.toContain("key");
    const notFound = { code: "NOT_FOUND", message: "API key not found" };
    await expect(h.get({ id: key.id }, ctx({ tenant: "other" }))).rejects.toMatchObject(notFound);
    await expect(h.get({ id: key.id }, ctx({ env: "test" }))).rejects.toMatchObject(notFound);
    await expect(h.get({ id: "not-a-key" }, admin)).rejects.toMatchObject(notFound);
  });

  test("update: only the fields sent change; the change is announced for the key's secrets", async () => {
    const { h, byId, changed, minter } = setup();
    const admin = minter();
    const key = await h.create({ name: "n", rate_limit: 50, expires_at: later(60_000) }, admin);
    const updated = await h.update({ id: key.id, scopes: ["memories:read"] }, admin);
    expect(updated).toMatchObject({ name: "n", scopes: ["memories:read"], rate_limit: 50, expires_at: key.expires_at });
    expect(changed).toEqual([{ key_id: key.id, hashes: [hashSecret(key.key)] }]);
    expect(await h.verify({ hash: hashSecret(key.key) }, ctx())).toMatchObject({ scopes: ["memories:read"] });
    const renamed = await h.update({ id: key.id, name: "m", rate_limit: null, expires_at: null }, admin);
    expect(renamed).toMatchObject({ name: "m", scopes: ["memories:read"], rate_limit: null, expires_at: null });
    expect(byId.get(key.id)!.expires_at).toBeNull();
  });

  test("update: an empty or unchanging patch answers the key and writes and announces nothing", async () => {
    const { h, changed, store, minter } = setup();
    const admin = minter();
    const key = await h.create({ name: "n" }, admin);
    let writes = 0;
    const replace = store.replace;
    store.replace = (a, b) => (writes++, replace(a, b));
    expect(await h.update({ id: key.id }, admin)).toEqual(await h.get({ id: key.id }, admin));
    await h.update({ id: key.id, name: "n", scopes: key.scopes }, admin);
    expect([writes, changed.length]).toEqual([0, 0]);
  });

  test("update: the minting rule, one 403 naming every refused field; nothing is written", async () => {
    const { h, byId, changed, minter } = setup();
    const root = ctx({ root: true });
    const wide = await h.create({ name: "wide", scopes: ["*"], plan: "pro" }, root);
    const until = later(3_600_000);
    const admin = minter({ scopes: ["admin", "memories:read"], plan: "free", expires_at: until });
    const before = JSON.stringify(byId.get(wide.id));
    const asked = { scopes: ["memories:read", "memories:write"] as Scope[], rate_limit: 101, expires_at: null };
    await expect(h.update({ id: wide.id, name: "x", ...asked }, admin)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "A key cannot grant more than it holds: scopes, rate_limit, expires_at",
      details: {
        field: "scopes",
        refused: { scopes: ["memories:write"], rate_limit: 101, expires_at: null },
        allowed: { scopes: ["admin", "memories:read"], rate_limit: 100, expires_at: until },
      },
    });
    // A pro key's own limit (1,000/min) is above a free key's 100: `rate_limit: null` asks for it.
    await expect(h.update({ id: wide.id, rate_limit: null }, admin)).rejects.toMatchObject({
      details: { refused: { rate_limit: null }, allowed: { rate_limit: 100 } },
    });
    await expect(h.update({ id: wide.id, expires_at: later(7_200_000) }, admin)).rejects.toMatchObject({
      details: { field: "expires_at" },
    });
    expect(JSON.stringify(byId.get(wide.id))).toBe(before);
    expect(changed).toEqual([]);
    // Narrowing within its own holdings is allowed, on any key of its tenant.
    const narrowed = await h.update({ id: wide.id, scopes: ["memories:read"], rate_limit: 100 }, admin);
    expect(narrowed).toMatchObject({ scopes: ["memories:read"], rate_limit: 100, plan: "pro" });
  });

  test("update: a key may change itself, never beyond what it holds", async () => {
    const { h, minter } = setup();
    const self = minter({ scopes: ["admin", "memories:read"], expires_at: later(60_000) });
    const id = self.caller!.keyId;
    expect(await h.update({ id, name: "me", scopes: ["admin"] }, self)).toMatchObject({
      name: "me",
      scopes: ["admin"],
    });
    await expect(h.update({ id, scopes: ["admin", "memories:write"] }, self)).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(h.update({ id, expires_at: null }, self)).rejects.toMatchObject({ details: { field: "expires_at" } });
  });

  test("update and rotate: a revoked key, the root key and a past expires_at are refused", async () => {
    const { h, byId, minter } = setup();
    const admin = minter();
    const key = await h.create({ name: "n" }, admin);
    await expect(h.update({ id: key.id, expires_at: "2000-01-01T00:00:00Z" }, admin)).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "expires_at", constraint: "future" },
    });
    await h.revoke({ id: key.id }, admin);
    const revoked = { code: "FORBIDDEN", message: "The API key is revoked: it can no longer be changed" };
    await expect(h.update({ id: key.id, name: "m" }, admin)).rejects.toMatchObject(revoked);
    await expect(h.rotate({ id: key.id }, admin)).rejects.toMatchObject(revoked);
    const rootRecord = { ...byId.get(key.id)!, id: crypto.randomUUID(), revoked_at: null, root: true };
    byId.set(rootRecord.id, rootRecord);
    const root = { code: "FORBIDDEN", message: "The root key is set by BOOTSTRAP_ADMIN_KEY: change it there" };
    await expect(h.update({ id: rootRecord.id, name: "m" }, ctx({ root: true }))).rejects.toMatchObject(root);
    await expect(h.rotate({ id: rootRecord.id }, ctx({ root: true }))).rejects.toMatchObject(root);
  });

  test("revoke: the root key is refused like a change, by itself or another admin key of its tenant", async () => {
    const { h, byId, revoked, minter } = setup();
    const admin = minter();
    const key = await h.create({ name: "n" }, admin);
    const rootRecord = { ...byId.get(key.id)!, id: crypto.randomUUID(), root: true };
    byId.set(rootRecord.id, rootRecord);
    const root = { code: "FORBIDDEN", message: "The root key is set by BOOTSTRAP_ADMIN_KEY: change it there" };
    await expect(h.revoke({ id: rootRecord.id }, ctx({ root: true }))).rejects.toMatchObject(root);
    await expect(h.revoke({ id: rootRecord.id }, admin)).rejects.toMatchObject(root);
    expect(byId.get(rootRecord.id)!.revoked_at).toBeNull();
    expect(revoked).toEqual([]);
  });

  test("update: a revocation that lands while a patch is decided is not overwritten", async () => {
    const { h, byId, store, minter } = setup();
    const admin = minter();
    const key = await h.create({ name: "n" }, admin);
    const replace = store.replace;
    let raced = false;
    store.replace = async (before, after) => {
      if (!raced) {
        raced = true;
        byId.set(key.id, { ...byId.get(key.id)!, revoked_at: new Date().toISOString() }); // another replica's write
      }
      return replace(before, after);
    };
    await expect(h.update({ id: key.id, name: "m" }, admin)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(byId.get(key.id)).toMatchObject({ name: "n", revoked_at: expect.any(String) });
  });

  test("rotate: a new secret for the same key; the old one fails at once; only hashes are stored", async () => {
    const { h, byId, changed, minter } = setup();
    const admin = minter();
    const key = await h.create({ name: "n", scopes: ["memories:read"], rate_limit: 9 }, admin);
    const rotated = await h.rotate({ id: key.id }, admin);
    expect(rotated.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(rotated.key).not.toBe(key.key);
    const { key: _k, message: _m, prefix, ...kept } = rotated;
    const { key: _k2, message: _m2, prefix: oldPrefix, ...was } = key;
    expect(kept).toEqual(was);
    expect([prefix, oldPrefix]).toEqual([rotated.key.slice(0, 13), key.key.slice(0, 13)]);
    expect(rotated.message).toBe("Store this key securely: it will not be shown again.");
    await expect(h.verify({ hash: hashSecret(key.key) }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await h.verify({ hash: hashSecret(rotated.key) }, ctx())).toMatchObject({ keyId: key.id, perMinute: 9 });
    expect(changed).toEqual([{ key_id: key.id, hashes: [hashSecret(key.key)] }]);
    const stored = JSON.stringify(byId.get(key.id));
    expect(stored).not.toContain(rotated.key);
    expect(stored).not.toContain(key.key);
    expect(byId.get(key.id)!.previous).toBeNull();
  });

  test("rotate with grace: the old secret works until then, with the key; rotating again ends it at once", async () => {
    const { h, byId, changed, revoked, clock, minter } = setup();
    const admin = minter();
    const key = await h.create({ name: "n" }, admin);
    const rotated = await h.rotate({ id: key.id, grace_seconds: 60 }, admin);
    const ends = Date.parse(byId.get(key.id)!.previous!.expires_at);
    expect(ends - Date.now()).toBeGreaterThan(59_000);
    expect(ends - Date.now()).toBeLessThanOrEqual(60_000);
    expect(rotated.message).toContain(`The previous secret works until ${new Date(ends).toISOString()}.`);
    const [oldHash, newHash] = [hashSecret(key.key), hashSecret(rotated.key)];
    expect(await h.verify({ hash: oldHash }, ctx())).toMatchObject({ keyId: key.id, expiresAt: ends });
    expect(await h.verify({ hash: newHash }, ctx())).toMatchObject({ keyId: key.id, expiresAt: null });
    // A patch is announced for both secrets while both work.
    await h.update({ id: key.id, name: "m" }, admin);
    expect(changed.at(-1)).toEqual({ key_id: key.id, hashes: [newHash, oldHash] });
    clock.skip = 60_001;
    await expect(h.verify({ hash: oldHash }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    clock.skip = 0;
    const again = await h.rotate({ id: key.id, grace_seconds: 60 }, admin);
    expect(changed.at(-1)).toEqual({ key_id: key.id, hashes: [newHash, oldHash] });
    await expect(h.verify({ hash: oldHash }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await h.verify({ hash: newHash }, ctx())).toMatchObject({ keyId: key.id });
    // Revoking ends both secrets at once, each announced.
    await h.revoke({ id: key.id }, admin);
    expect(revoked).toEqual([
      { id: key.id, hash: hashSecret(again.key) },
      { id: key.id, hash: newHash },
    ]);
    for (const hash of [newHash, hashSecret(again.key)])
      await expect(h.verify({ hash }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("rotate: the caller must be able to mint the key it rotates; any key may rotate itself", async () => {
    const { h, minter } = setup();
    const wide = await h.create({ name: "wide", scopes: ["*"] }, ctx({ root: true, tenant: "acme" }));
    const admin = minter({ scopes: ["admin"] });
    await expect(h.rotate({ id: wide.id }, admin)).rejects.toMatchObject({
      code: "FORBIDDEN",
      details: { field: "scopes", refused: { scopes: ["*"] } },
    });
    const self = await h.rotate({ id: admin.caller!.keyId }, admin);
    expect(self).toMatchObject({ id: admin.caller!.keyId, scopes: ["admin"] });
  });
});
