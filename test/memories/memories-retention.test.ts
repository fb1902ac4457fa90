import { describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { ok, tenant } from "./memory-helpers";
import { expectError } from "../envelope-helpers";
import { make, ms } from "./lifecycle-helpers";

/**
 * The tenant's settings (`GET/PATCH /v1/tenant`, scope admin): retention defaults per tier, applied to
 * memories created afterwards without an expiry of their own; one set of settings per environment.
 */
const DAY = 86_400_000;
const defaults = { short: null, medium: null, long: null, cascade: false };

describe("GET / PATCH /v1/tenant", () => {
  test("starts with no defaults; a patch changes what it sends (null removes) and answers the settings", async () => {
    const t = await tenant();
    expect(await ok(t.api.get("/v1/tenant"))).toEqual({
      tenant_id: t.tenant,
      environment: "live",
      retention: defaults,
      quota: { memories: null, bytes: null },
      cors: { allowed_origins: [] },
      updated_at: null,
    });
    const set = await ok(t.api.patch("/v1/tenant", { retention: { short: 30, long: 3650 } }));
    expect(set.retention).toEqual({ short: 30, medium: null, long: 3650, cascade: false });
    expect(Math.abs(ms(set.updated_at) - Date.now())).toBeLessThan(5000);
    const again = await ok(t.api.patch("/v1/tenant", { retention: { long: null, cascade: true } }));
    expect(again.retention).toEqual({ short: 30, medium: null, long: null, cascade: true });
    expect(ms(again.updated_at)).toBeGreaterThanOrEqual(ms(set.updated_at));
    expect(await ok(t.api.get("/v1/tenant"))).toEqual(again);
    // Nothing sent, nothing changed.
    expect(await ok(t.api.patch("/v1/tenant", {}))).toEqual(again);
    expect(await ok(t.api.patch("/v1/tenant", { retention: {} }))).toEqual(again);
  });

  test("refusals name the field; nothing changes", async () => {
    const { api } = await tenant();
    const cases: [unknown, string, Record<string, unknown>][] = [
      [
        { retention: { short: 0 } },
        "retention.short must be >= 1",
        { field: "retention.short", constraint: "minimum", min: 1 },
      ],
      [
        { retention: { medium: 36_501 } },
        "retention.medium must be <= 36500",
        { field: "retention.medium", constraint: "maximum", max: 36_500 },
      ],
      [
        { retention: { long: 1.5 } },
        "retention.long must be an integer",
        { field: "retention.long", constraint: "type" },
      ],
      [
        { retention: { weekly: 7 } },
        "retention.weekly is not an accepted field",
        { field: "retention.weekly", constraint: "unknown_field" },
      ],
      [{ quotas: 5 }, "quotas is not an accepted field", { field: "quotas", constraint: "unknown_field" }],
      [
        { quota: { memories: -1 } },
        "quota.memories must be >= 0",
        { field: "quota.memories", constraint: "minimum", min: 0 },
      ],
    ];
    for (const [body, message, details] of cases)
      expectError(await api.patch("/v1/tenant", body), 400, "VALIDATION_ERROR", message, details);
    expect((await ok(api.get("/v1/tenant"))).retention).toEqual(defaults);
  });

  test("needs admin; each environment has its own settings, a test key never touches live ones", async () => {
    const stack = await testStack();
    const live = await tenant();
    const writer = await newTenant(stack.baseUrl, stack.adminKey, {
      tenant: live.tenant,
      scopes: ["memories:read", "memories:write", "search:read"],
    });
    for (const res of [await writer.api.get("/v1/tenant"), await writer.api.patch("/v1/tenant", { retention: {} })])
      expectError(res, 403, "FORBIDDEN", "Missing required scope: admin");
    const sandbox = await newTenant(stack.baseUrl, stack.adminKey, { tenant: live.tenant, environment: "test" });
    await ok(sandbox.api.patch("/v1/tenant", { retention: { short: 1 } }));
    expect((await ok(sandbox.api.get("/v1/tenant"))).environment).toBe("test");
    expect((await ok(live.api.get("/v1/tenant"))).retention.short).toBeNull();
    expect((await make(live.api, { tier: "short" })).expires_at).toBeNull();
    const other = await tenant();
    await ok(live.api.patch("/v1/tenant", { retention: { medium: 2 } }));
    expect((await ok(other.api.get("/v1/tenant"))).retention.medium).toBeNull();
  });
});

describe("retention defaults", () => {
  test("a new memory of a tier with a default expires that many days after its creation", async () => {
    const { api } = await tenant();
    await ok(api.patch("/v1/tenant", { retention: { short: 30, medium: 365 } }));
    const short = await make(api, { tier: "short" });
    expect(ms(short.expires_at!) - ms(short.created_at)).toBe(30 * DAY);
    const medium = await make(api);
    expect(ms(medium.expires_at!) - ms(medium.created_at)).toBe(365 * DAY);
    expect((await make(api, { tier: "long" })).expires_at).toBeNull();
  });

  test("a memory's own expiry wins: ttl_seconds, expires_at, or null for never", async () => {
    const { api } = await tenant();
    await ok(api.patch("/v1/tenant", { retention: { short: 30 } }));
    const ttl = await make(api, { tier: "short", ttl_seconds: 60 });
    expect(ms(ttl.expires_at!) - ms(ttl.created_at)).toBe(60_000);
    const at = new Date(Date.now() + 3 * DAY).toISOString();
    expect((await make(api, { tier: "short", expires_at: at })).expires_at).toBe(at);
    expect((await make(api, { tier: "short", expires_at: null })).expires_at).toBeNull();
  });

  test("applies to memories created afterwards only; a change of tier does not apply it", async () => {
    const { api } = await tenant();
    const earlier = await make(api, { tier: "short" });
    const medium = await make(api, { tier: "medium" });
    await ok(api.patch("/v1/tenant", { retention: { short: 7 } }));
    expect((await ok(api.get(`/v1/memories/${earlier.id}`))).expires_at).toBeNull();
    expect((await ok(api.patch(`/v1/memories/${medium.id}`, { tier: "short" }))).expires_at).toBeNull();
    await ok(api.patch("/v1/tenant", { retention: { short: null } }));
    expect((await make(api, { tier: "short" })).expires_at).toBeNull();
  });
});
