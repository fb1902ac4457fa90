import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import { gqlClient } from "../graphql/graphql-helpers";
import { expectError, expectEnvelopeError } from "../envelope-helpers";
import type { Stack } from "../../scripts/stack/launch";
import { memoryRecordFixture } from "../../services/contract/portability.fixture";

/**
 * Per-tenant storage quotas through the API: the plan's defaults, the root key's override (PATCH /v1/tenant),
 * the atomic check (one winner of a race), 403 QUOTA_EXCEEDED on REST and GraphQL, and usage.storage.
 */
let stack: Stack;
let root: ApiClient;

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
});

const setQuota = (tenant: string, quota: Record<string, number | null>, environment = "live") =>
  root.patch("/v1/tenant", { tenant_id: tenant, environment, quota });
const storageOf = async (api: ApiClient) => (await api.get("/v1/usage")).body.data.storage;
const create = (api: ApiClient, content = "a memory") => api.post("/v1/memories", { content });

describe("quotas", () => {
  test("twenty concurrent creates at quota − 1: exactly one wins, the others are 403 QUOTA_EXCEEDED", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    expect((await setQuota(t.tenant, { memories: 5 })).body.data.quota).toEqual({ memories: 5, bytes: null });
    for (let i = 0; i < 4; i++) expect((await create(t.api)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => create(t.api)));
    expect(answers.filter((a) => a.status === 200).length).toBe(1);
    const message = "The memories quota of this tenant environment (5) does not allow this write";
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expectError(refused, 403, "QUOTA_EXCEEDED", message, { quota: "memories", limit: 5, used: 5 });
    }
    expect(await storageOf(t.api)).toEqual({
      memories: 5,
      bytes: 5 * ("a memory".length + "{}".length),
      limits: { memories: 5, bytes: null },
    });
    expect((await t.api.get("/v1/memories")).body.data.length).toBe(5);
  });

  test("tenant A at its quota does not affect tenant B, nor A's other environment", async () => {
    const a = await newTenant(stack.baseUrl, stack.adminKey);
    const aTest = await newTenant(stack.baseUrl, stack.adminKey, { tenant: a.tenant, environment: "test" });
    const b = await newTenant(stack.baseUrl, stack.adminKey);
    await setQuota(a.tenant, { memories: 1 });
    expect((await create(a.api)).status).toBe(200);
    expectEnvelopeError(await create(a.api), 403, "QUOTA_EXCEEDED");
    for (const other of [b, aTest]) {
      for (let i = 0; i < 3; i++) expect((await create(other.api)).status).toBe(200);
      expect(await storageOf(other.api)).toMatchObject({ memories: 3, limits: { memories: null, bytes: null } });
    }
  });

  test("bytes: a create or a patch that grows past the limit is refused, shrinking passes; GraphQL alike", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    await setQuota(t.tenant, { bytes: 30 });
    const m = (await create(t.api, "x".repeat(20))).body.data; // 22 bytes with "{}"
    const grown = await t.api.patch(`/v1/memories/${m.id}`, { content: "x".repeat(29) });
    expectEnvelopeError(grown, 403, "QUOTA_EXCEEDED");
    expect(grown.body.error.details).toEqual({ quota: "bytes", limit: 30, used: 22 });
    expect((await t.api.patch(`/v1/memories/${m.id}`, { content: "short" })).status).toBe(200);
    const gql = gqlClient(stack.baseUrl, t.key);
    const refused = await gql.raw(`mutation { createMemory(input: { content: "${"y".repeat(40)}" }) { id } }`);
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: "QUOTA_EXCEEDED",
      details: { quota: "bytes", limit: 30, used: 7 },
    });
    const usage = await gql.raw("{ usage { storage { memories bytes limits { memories bytes } } } }");
    expect(usage.data.usage.storage).toEqual({ memories: 1, bytes: 7, limits: { memories: null, bytes: 30 } });
    // Back to the plan's default (self_hosted here: unlimited unless configured).
    await setQuota(t.tenant, { bytes: null });
    expect((await create(t.api, "y".repeat(40))).status).toBe(200);
  });

  test("a batch and an import meet the quota item by item: the first ones go in, the rest are refused", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
    await setQuota(t.tenant, { memories: 3 });
    const items = Array.from({ length: 5 }, (_, i) => ({ content: `batch ${i}` }));
    const batch = (await t.api.post("/v1/memories/batch", { items })).body.data;
    expect([batch.created, batch.failed]).toEqual([3, 2]);
    expect(batch.items.slice(3).map((r: any) => r.error.code)).toEqual(["QUOTA_EXCEEDED", "QUOTA_EXCEEDED"]);
    await setQuota(t.tenant, { memories: 5 });
    const at = "2025-01-01T00:00:00.000Z";
    const lines = Array.from({ length: 4 }, (_, i) => memoryRecordFixture({ content: `imported ${i}` }, at));
    const res = await fetch(`${stack.baseUrl}/v1/import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${t.key}` },
      body: lines.map((l) => JSON.stringify(l)).join("\n"),
    });
    const report = ((await res.json()) as any).data;
    expect([report.created.memories, report.failed]).toEqual([2, 2]);
    expect(report.errors.map((e: any) => [e.line, e.code, e.details])).toEqual([
      [3, "QUOTA_EXCEEDED", { quota: "memories", limit: 5, used: 5 }],
      [4, "QUOTA_EXCEEDED", { quota: "memories", limit: 5, used: 5 }],
    ]);
    expect(await storageOf(t.api)).toMatchObject({ memories: 5 });
  });

  test("a plan's defaults apply without an override; only the root key sets quotas", async () => {
    const minted = await root.post("/v1/keys", {
      name: "free",
      tenant_id: `t${crypto.randomUUID().slice(0, 8)}`,
      plan: "free",
      scopes: ["*"],
    });
    const free = apiClient(stack.baseUrl, minted.body.data.key);
    expect(await storageOf(free)).toEqual({ memories: 0, bytes: 0, limits: { memories: 10_000, bytes: 50_000_000 } });
    const own = await free.patch("/v1/tenant", { quota: { memories: 1_000_000 } });
    expectError(own, 403, "FORBIDDEN", "Only the root key sets quotas", { field: "quota" });
    const other = await free.get("/v1/tenant?tenant_id=someone-else");
    expectEnvelopeError(other, 403, "FORBIDDEN");
    expect((await free.get("/v1/tenant")).body.data.quota).toEqual({ memories: null, bytes: null });
  });

  test("/metrics: the tenant environments storing the most bytes, a bounded number of series", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    for (let i = 0; i < 5; i++) expect((await create(t.api, "z".repeat(100_000))).status).toBe(200);
    const series = (text: string, name: string) => text.split("\n").filter((l) => l.startsWith(`${name}{`));
    let text = "";
    // The ranking is read at most every 15 s: an earlier scrape may hold one from before these writes.
    const deadline = Date.now() + 20_000;
    do {
      text = await (await fetch(stack.metricsUrl)).text();
      if (text.includes(`tenant="${t.tenant}"`)) break;
      await Bun.sleep(500);
    } while (Date.now() < deadline);
    const labels = `{tenant="${t.tenant}",environment="live"}`;
    expect(series(text, "tenant_storage_bytes")).toContain(`tenant_storage_bytes${labels} ${5 * 100_002}`);
    expect(series(text, "tenant_storage_memories")).toContain(`tenant_storage_memories${labels} 5`);
    expect(series(text, "tenant_storage_bytes").length).toBeLessThanOrEqual(20);
  }, 30_000);
});
