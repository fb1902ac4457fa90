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
      return { records: records.slice(offset, offset + limit), lastUsed: records.map(() => null), total: records.length };
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
  const revoked: string[] = [];
  const h = keyHandlers({ store, defaultPlan: "free", selfHosted: { perMinute: 1000, perDay: 0 }, announceRevoked: (hash) => revoked.push(hash) });
  return { h, byId, revoked };
}

describe("keys handlers", () => {
  test("create: secret shape, default scopes, only the hash stored, plan limits on verify", async () => {
    const { h, byId } = setup();
    const key = await h.create({ name: "n" }, ctx());
    expect(key.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(key.scopes).toEqual(["memories:read", "memories:write", "search:read"]);
    const stored = byId.get(key.id)!;
    expect(JSON.stringify(stored)).not.toContain(key.key);
    expect(stored.hash).toBe(hashSecret(key.key));
    expect(await h.verify({ hash: stored.hash }, ctx())).toMatchObject({ tenant: "acme", env: "live", perMinute: 100, perDay: 1000 });
  });

  test("a key's rate_limit replaces the per-minute limit; the daily limit stays the plan's", async () => {
    const { h } = setup();
    const key = await h.create({ name: "n", rate_limit: 7 }, ctx());
    expect(await h.verify({ hash: hashSecret(key.key) }, ctx())).toMatchObject({ perMinute: 7, perDay: 1000 });
  });

  test("tenant_id: FORBIDDEN unless root; root mints in another tenant", async () => {
    const { h } = setup();
    await expect(h.create({ name: "n", tenant_id: "other" }, ctx())).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await h.create({ name: "n", tenant_id: "other" }, ctx({ root: true }))).tenant_id).toBe("other");
  });

  test("a test key cannot create live keys; expires_at must be in the future", async () => {
    const { h } = setup();
    await expect(h.create({ name: "n" }, ctx({ env: "test" }))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.create({ name: "n", expires_at: "2000-01-01T00:00:00Z" }, ctx())).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: { field: "expires_at", constraint: "future" } });
  });

  test("revoke: announces the hash, verify then fails; another tenant's key is NOT_FOUND", async () => {
    const { h, revoked } = setup();
    const key = await h.create({ name: "n" }, ctx());
    await expect(h.revoke({ id: key.id }, ctx({ tenant: "other" }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    const done = await h.revoke({ id: key.id }, ctx());
    expect(done).toMatchObject({ id: key.id, revoked: true });
    expect(revoked).toEqual([hashSecret(key.key)]);
    await expect(h.verify({ hash: hashSecret(key.key) }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("verify: unknown and expired keys are UNAUTHORIZED", async () => {
    const { h, byId } = setup();
    await expect(h.verify({ hash: "0".repeat(64) }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const key = await h.create({ name: "n", expires_at: new Date(Date.now() + 60_000).toISOString() }, ctx());
    byId.get(key.id)!.expires_at = new Date(Date.now() - 1000).toISOString();
    await expect(h.verify({ hash: hashSecret(key.key) }, ctx())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("list: a test key sees only test keys", async () => {
    const { h } = setup();
    await h.create({ name: "live" }, ctx());
    await h.create({ name: "sandbox", environment: "test" }, ctx());
    const page = await h.list({ limit: 50, offset: 0 }, ctx({ env: "test" }));
    expect(page.items.map((k) => k.name)).toEqual(["sandbox"]);
  });
});
