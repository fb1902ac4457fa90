import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keysMatching, stackRedis, testStack } from "../harness";
import { apiClient, newTenant } from "../api";
import type { RedisClient } from "../../services/kit/redis-functions";
import { ERASE_PROGRESS } from "../../services/memories/portability";
import { exportLines, portTenant, seed } from "./portability-helpers";
import { gqlClient } from "../graphql/graphql-helpers";

let redis: RedisClient;

beforeAll(async () => {
  redis = stackRedis(await testStack());
});
afterAll(() => redis.disconnect());

/** A tenant with data in every service: memories, tags, entities, settings, a webhook, a search index, usage. */
async function fullTenant() {
  const t = await portTenant();
  await seed(t.api);
  const ok = (r: { status: number; body: unknown }) => {
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  };
  ok(await t.api.patch("/v1/tenant", { retention: { short: 30 } }));
  ok(await t.api.post("/v1/webhooks", { url: "https://hooks.example.com/in", events: ["memory.created"] }));
  ok(await t.api.post("/v1/search", { query: "turn thread" }));
  // A kept answer for Idempotency-Key replays holds a memory's content: it goes with the tenant too.
  ok(await t.api.post("/v1/memories", { content: "one more, for a delivery" }, { "Idempotency-Key": "erase-me" }));
  return t;
}

const erase = (baseUrl: string, key: string, body?: unknown) =>
  fetch(`${baseUrl}/v1/tenant`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

/** Whether `check` holds within 10 s, asked every 100 ms. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (await check()) return true;
    await Bun.sleep(100);
  }
  return check();
}

const underTag = (tenant: string, env = "live") => keysMatching(redis, `*{${tenant}:${env}}*`);

/** Usage fields of a key, over every day the tenant has counters for. */
async function usageOf(tenant: string, keyId: string): Promise<string[]> {
  const out: string[] = [];
  for (const key of await keysMatching(redis, `usage:{${tenant}}:*`))
    out.push(...(await redis.hkeys(key)).filter((f) => f.startsWith(`${keyId}|`)));
  return out;
}

describe("DELETE /v1/tenant", () => {
  test("an admin key must type its tenant and environment out; another tenant's is the root key's only", async () => {
    const t = await portTenant();
    const none = await erase(t.baseUrl, t.key);
    expect(none.status).toBe(400);
    expect(none.body.error.details).toEqual({ field: "confirm", constraint: "confirm", expected: `${t.tenant}:live` });
    const wrong = await erase(t.baseUrl, t.key, { confirm: `${t.tenant}:test` });
    expect(wrong.status).toBe(400);
    const other = await erase(t.baseUrl, t.key, { confirm: `${t.tenant}:live`, tenant_id: "someone-else" });
    expect(other.status).toBe(403);
    const stack = await testStack();
    const reader = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["memories:read", "memories:write"] });
    expect((await erase(t.baseUrl, reader.key, { confirm: `${reader.tenant}:live` })).status).toBe(403);
    expect((await t.api.get("/v1/memories")).status).toBe(200);
  });

  test("erases everything under the hash tag, keys and usage included; other tenants stay as they were", async () => {
    const victim = await fullTenant();
    const bystander = await fullTenant();
    const before = await exportLines(bystander.baseUrl, bystander.key);
    // The search index of a live tenant changes on its own (a rebuild's lock, events applied late): compared apart.
    const dataKeys = async (tenant: string) => (await underTag(tenant)).filter((k) => !k.startsWith("s:")).sort();
    const bystanderKeys = await dataKeys(bystander.tenant);
    expect(await underTag(victim.tenant)).toContainEqual(expect.stringMatching(/^s:.*:v:/));
    expect(await underTag(victim.tenant)).toContainEqual(expect.stringMatching(/^idem:/));
    // The usage batches of the requests above reach the keys service; the dispatcher makes the deliveries, which
    // live in partitions of their own hash tag: they must go with their endpoint.
    expect(await eventually(async () => (await usageOf(victim.tenant, victim.keyId)).length > 0)).toBe(true);
    const [hook] = (await victim.api.get("/v1/webhooks")).body.data;
    const deliveries = () => keysMatching(redis, `whlog:*:${hook.id}`);
    expect(await eventually(async () => (await deliveries()).length === 1)).toBe(true);

    const res = await erase(victim.baseUrl, victim.key, { confirm: `${victim.tenant}:live` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      tenant_id: victim.tenant,
      environment: "live",
      erased: true,
      resumed: false,
    });
    expect(res.body.data.deleted.memories).toBeGreaterThan(10);
    expect(res.body.data.deleted.search).toBeGreaterThan(10);
    expect(res.body.data.deleted.keys).toBe(1);

    expect(await underTag(victim.tenant)).toEqual([]);
    expect(await deliveries()).toEqual([]);
    expect(await redis.hget(ERASE_PROGRESS, `{${victim.tenant}:live}`)).toBeNull();
    expect(await keysMatching(redis, `apikey:{${victim.tenant}}:*`)).toEqual([]);
    expect(await usageOf(victim.tenant, victim.keyId)).toEqual([]);
    expect((await victim.api.get("/v1/memories")).status).toBe(401);

    expect(await dataKeys(bystander.tenant)).toEqual(bystanderKeys);
    expect(await redis.exists(`s:{${bystander.tenant}:live}:meta`)).toBe(1);
    expect(await exportLines(bystander.baseUrl, bystander.key)).toEqual(before);
  });

  test("an erase cut short after some steps goes on from where it was when asked again", async () => {
    const t = await fullTenant();
    const space = `{${t.tenant}:live}`;
    // As if it stopped in the middle of the memories step: webhooks done, part of the memories deleted.
    for (const hook of (await t.api.get("/v1/webhooks")).body.data)
      expect((await t.api.delete(`/v1/webhooks/${hook.id}`)).status).toBe(200);
    await redis.hset(ERASE_PROGRESS, space, 1);
    const memoryKeys = await keysMatching(redis, `m:${space}:*`);
    await redis.unlink(...memoryKeys.slice(0, 5));
    const res = await erase(t.baseUrl, t.key, { confirm: `${t.tenant}:live` });
    expect(res.status).toBe(200);
    expect(res.body.data.resumed).toBe(true);
    expect(res.body.data.deleted.webhooks).toBe(0);
    expect(await underTag(t.tenant)).toEqual([]);
    expect(await redis.hget(ERASE_PROGRESS, space)).toBeNull();
  });

  test("the root key erases another tenant's environment without a confirmation; the other stays", async () => {
    const stack = await testStack();
    const live = await fullTenant();
    const test = await newTenant(stack.baseUrl, stack.adminKey, { tenant: live.tenant, environment: "test" });
    const kept = await test.api.post("/v1/memories", { content: "in test" });
    expect(kept.status).toBe(200);
    const res = await erase(stack.baseUrl, stack.adminKey, { tenant_id: live.tenant, environment: "live" });
    expect(res.status).toBe(200);
    expect(await underTag(live.tenant)).toEqual([]);
    expect((await test.api.get(`/v1/memories/${kept.body.data.id}`)).status).toBe(200);
    expect((await apiClient(stack.baseUrl, stack.adminKey).get("/v1/tenant")).status).toBe(200);
  });
});

describe("mutation eraseTenant", () => {
  test("needs the typed confirmation, then erases as DELETE /v1/tenant does", async () => {
    const t = await fullTenant();
    const gql = gqlClient(t.baseUrl, t.key);
    const refused = await gql.raw(`mutation { eraseTenant { tenantId } }`);
    expect(refused.errors![0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "confirm" } });
    const done = await gql.request(
      `mutation { eraseTenant(confirm: "${t.tenant}:live") { tenantId environment erased resumed deleted { keys } } }`,
    );
    expect(done.eraseTenant).toEqual({
      tenantId: t.tenant,
      environment: "LIVE",
      erased: true,
      resumed: false,
      deleted: { keys: 1 },
    });
    expect(await underTag(t.tenant)).toEqual([]);
  });

  test("refuses an Idempotency-Key in that field, says why, and erases nothing", async () => {
    const t = await fullTenant();
    const before = (await underTag(t.tenant)).length;
    const gql = gqlClient(t.baseUrl, t.key);
    const res = await gql.raw(`mutation { eraseTenant(confirm: "${t.tenant}:live") { tenantId } }`, undefined, {
      "Idempotency-Key": "erase-by-graphql",
    });
    expect(res.errors![0]!.extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "idempotency-key", constraint: "unsupported" },
    });
    expect(res.errors![0]!.message).toContain("an erase deletes every kept answer");
    expect((await exportLines(t.baseUrl, t.key)).some((l) => l.type === "memory")).toBe(true);
    expect((await underTag(t.tenant)).length).toBeGreaterThanOrEqual(before);
  });
});
