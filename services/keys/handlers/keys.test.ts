import { describe, expect, test } from "bun:test";
import type { HandlerContext } from "../../kit/handler";
import { createLogger } from "../../kit/log";
import type { KeyStore } from "../store";
import type { KeyRecord } from "../record";
import { hashSecret } from "../secret";
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
    findByHash: async (hash: string) => [...byId.values()].find((r) => r.hash === hash) ?? null,
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
  const selfHosted = { perMinute: 1000, perDay: 0 };
  const announceRevoked = ({ id, hash }: { id: string; hash: string }) => void revoked.push({ id, hash });
  const h = keyHandlers({ store, defaultPlan: "free", selfHosted, announceRevoked });
  /** A stored minting key (the handler reads the issuer from the store) and the context of a call made with it. */
  const minter = (over: Partial<KeyRecord> = {}): HandlerContext => {
    const record: KeyRecord = {
      id: crypto.randomUUID(),
      tenant_id: "acme",
      name: "minter",
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
    byId.set(record.id, record);
    return ctx({ tenant: record.tenant_id, env: record.environment, keyId: record.id, scopes: record.scopes });
  };
  return { h, byId, revoked, minter };
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
