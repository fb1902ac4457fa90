import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import { createLogger } from "../kit/log";
import type { HandlerContext } from "../kit/handler";
import { changesOf, settingsKey, settingsOf, SETTINGS_LUA } from "./settings";
import { createTenantSettingsStore, type TenantSettingsStore } from "./store";
import { tenantHandlers } from "./handlers";

const db = privateRedis("tenant-settings");
let redis: Redis;
let store: TenantSettingsStore;
beforeAll(async () => {
  redis = await db.connect();
  store = createTenantSettingsStore(redis);
});

const space = { tenant: "acme", env: "live" as const };
const ctxOf = (tenant: string, env: "live" | "test" = "live", root = false): HandlerContext => ({
  caller: { tenant, env, keyId: "k", scopes: ["admin"], root },
  requestId: "r",
  log: createLogger({}, "error"),
});

describe("settings", () => {
  test("a patch is fields to set and to remove; the stored hash reads back as the API shape", () => {
    expect(changesOf({ retention: { short: 30, medium: null, cascade: false } })).toEqual({
      set: { "retention:short": "30" },
      remove: ["retention:medium", "retention:cascade"],
    });
    expect(changesOf({})).toEqual({ set: {}, remove: [] });
    expect(
      settingsOf(space, { "retention:short": "30", "retention:cascade": "1", updated_at: "1700000000000" }),
    ).toEqual({
      tenant_id: "acme",
      environment: "live",
      retention: { short: 30, medium: null, long: null, cascade: true },
      quota: { memories: null, bytes: null },
      cors: { allowed_origins: [] },
      updated_at: "2023-11-14T22:13:20.000Z",
    });
    expect(changesOf({ quota: { memories: 0, bytes: null } })).toEqual({
      set: { "quota:memories": "0" },
      remove: ["quota:bytes"],
    });
    expect(settingsOf(space, { "quota:memories": "0", "quota:bytes": "5000" }).quota).toEqual({
      memories: 0,
      bytes: 5000,
    });
    expect(settingsOf(space, { "retention:long": "soon" }).retention.long).toBeNull();
    expect(changesOf({ cors: { allowed_origins: ["https://a.example"] } }).set).toEqual({
      "cors:origins": '["https://a.example"]',
    });
    expect(changesOf({ cors: { allowed_origins: [] } }).remove).toEqual(["cors:origins"]);
    expect(settingsOf(space, { "cors:origins": '["https://a.example"]' }).cors.allowed_origins).toEqual([
      "https://a.example",
    ]);
  });

  test("settings.lua reads what the store writes", async () => {
    const lib = [
      "#!lua name=settings_test",
      await Bun.file(SETTINGS_LUA).text(),
      "redis.register_function{ function_name = 'settings_read', flags = { 'no-writes' },",
      "  callback = function(keys, args)",
      "  local memories, bytes = quota_overrides(keys[1])",
      "  return { retention_days(keys[1], args[1]) or -1, expiry_cascades(keys[1]) and 1 or 0, memories or -1,",
      "    bytes or -1 }",
      "end }",
    ].join("\n");
    await redis.call("FUNCTION", "LOAD", "REPLACE", lib);
    const read = async (tier: string) => redis.fcall("settings_read", 1, settingsKey(space), tier);
    expect(await read("short")).toEqual([-1, 0, -1, -1]);
    const { set, remove } = changesOf({ retention: { short: 7, cascade: true }, quota: { memories: 0, bytes: 5 } });
    await store.update(space, set, remove);
    expect(await read("short")).toEqual([7, 1, 0, 5]);
    expect(await read("long")).toEqual([-1, 1, 0, 5]);
  });
});

describe("tenant handlers", () => {
  test("get and update the caller's own tenant and environment; an empty patch writes nothing", async () => {
    const h = tenantHandlers({ store });
    const ctx = ctxOf("t1");
    expect((await h.get({}, ctx)).updated_at).toBeNull();
    expect(await h.update({ retention: {} }, ctx)).toEqual(await h.get({}, ctx));
    expect(await redis.exists(settingsKey({ tenant: "t1", env: "live" }))).toBe(0);
    const changed = await h.update({ retention: { medium: 90 } }, ctx);
    expect(changed.retention.medium).toBe(90);
    expect(changed.updated_at).not.toBeNull();
    expect((await h.get({}, ctxOf("t1", "test"))).retention.medium).toBeNull();
    expect((await h.get({}, ctxOf("t2"))).retention.medium).toBeNull();
    expect((await h.update({ retention: { medium: null } }, ctx)).retention.medium).toBeNull();
  });

  test("only the root key sets quotas, and it names any tenant and environment", async () => {
    const h = tenantHandlers({ store });
    const refused = await Promise.resolve(h.update({ quota: { memories: 5 } }, ctxOf("t3"))).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "FORBIDDEN", details: { field: "quota" } });
    const elsewhere = await Promise.resolve(h.get({ tenant_id: "t4" }, ctxOf("t3"))).catch((e: unknown) => e);
    expect(elsewhere).toMatchObject({ code: "FORBIDDEN", details: { field: "tenant_id" } });
    const root = ctxOf("default", "live", true);
    const set = await h.update({ tenant_id: "t3", environment: "test", quota: { memories: 5, bytes: 0 } }, root);
    expect(set).toMatchObject({ tenant_id: "t3", environment: "test", quota: { memories: 5, bytes: 0 } });
    expect((await h.get({}, ctxOf("t3", "test"))).quota).toEqual({ memories: 5, bytes: 0 });
    expect((await h.get({}, ctxOf("t3"))).quota).toEqual({ memories: null, bytes: null });
    expect((await h.get({}, root)).quota).toEqual({ memories: null, bytes: null });
    await h.update({ tenant_id: "t3", environment: "test", quota: { memories: null } }, root);
    expect((await h.get({}, ctxOf("t3", "test"))).quota).toEqual({ memories: null, bytes: 0 });
  });
});
