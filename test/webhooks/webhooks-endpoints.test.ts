import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { newTenant, type ApiClient } from "../api";
import { gqlClient } from "../graphql/graphql-helpers";
import type { Stack } from "../../scripts/stack/launch";
import { deliveries, eventually, receiver, register } from "./webhook-helpers";

/** Webhook endpoints over REST and GraphQL: registration rules, scopes, isolation, the secret shown once. */
let stack: Stack;
let api: ApiClient;
let key: string;

beforeAll(async () => {
  stack = await testStack();
  const t = await newTenant(stack.baseUrl, stack.adminKey);
  api = t.api;
  key = t.key;
});

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const refusal = (res: { status: number; body: any }) => [res.status, res.body.error?.code, res.body.error?.details];

describe("registering an endpoint", () => {
  test("returns the endpoint with its secret once; get and list never show it", async () => {
    const res = await api.post("/v1/webhooks", {
      url: "https://hooks.example.com/in",
      events: ["memory.created", "memory.deleted"],
      description: "orders",
    });
    expect(res.status).toBe(200);
    const created = res.body.data;
    expect(created).toMatchObject({
      url: "https://hooks.example.com/in",
      events: ["memory.created", "memory.deleted"],
      description: "orders",
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      environment: "live",
      previous_secret_expires_at: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await api.get(`/v1/webhooks/${created.id}`);
    expect(got.body.data).toEqual(
      Object.fromEntries(Object.entries(created).filter(([k]) => !["secret", "message"].includes(k))),
    );
    const listed = await api.get("/v1/webhooks");
    expect(listed.body.data.map((w: any) => w.id)).toContain(created.id);
    expect(JSON.stringify([got.body, listed.body])).not.toContain("whsec_");
  });

  test('"*" subscribes to everything and stands alone', async () => {
    const { data } = await register(api, "https://hooks.example.com/all", ["memory.updated", "*"]);
    expect(data.events).toEqual(["*"]);
  });

  test("metadata, private and loopback addresses are refused, http too unless allow-listed", async () => {
    for (const url of ["http://169.254.169.254/", "http://10.0.0.1/", "https://[::1]/", "https://192.168.0.10/x"])
      expect(refusal(await api.post("/v1/webhooks", { url, events: ["*"] }))).toEqual([
        400,
        "VALIDATION_ERROR",
        { field: "url", constraint: "blocked_address" },
      ]);
    expect(refusal(await api.post("/v1/webhooks", { url: "http://hooks.example.com/", events: ["*"] }))).toEqual([
      400,
      "VALIDATION_ERROR",
      { field: "url", constraint: "https" },
    ]);
    // The test stack allow-lists 127.0.0.1 (WEBHOOK_TEST_ENV): by that address only, not by a name for it.
    expect((await api.post("/v1/webhooks", { url: "http://127.0.0.1:9/", events: ["*"] })).status).toBe(200);
    expect(refusal(await api.post("/v1/webhooks", { url: "http://localhost:9/", events: ["*"] }))[2]).toEqual({
      field: "url",
      constraint: "https",
    });
  });

  test("IPv6 carrying a private IPv4 is refused at create and update; the allow-list holds as written", async () => {
    const carriers = [
      "https://[2002:7f00:1::1]/", // 6to4 of 127.0.0.1
      "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", // Teredo, client 127.0.0.1
      "https://[64:ff9b::a9fe:a9fe]/", // NAT64 of the metadata address
      "https://[64:ff9b:1::a00:1]/", // NAT64 local use
      "https://[::ffff:7f00:1]/", // IPv4-mapped, in hex
      "https://[::127.0.0.1]/", // IPv4-compatible
    ];
    const blocked = [400, "VALIDATION_ERROR", { field: "url", constraint: "blocked_address" }];
    for (const url of carriers)
      expect([url, ...refusal(await api.post("/v1/webhooks", { url, events: ["*"] }))]).toEqual([url, ...blocked]);
    const { id } = (await register(api, "https://hooks.example.com/v6")).data;
    for (const url of carriers)
      expect([url, ...refusal(await api.patch(`/v1/webhooks/${id}`, { url }))]).toEqual([url, ...blocked]);
    // 127.0.0.1 is allow-listed as written: 127.1, 2130706433 and 0x7f000001 are not it.
    for (const url of ["http://127.1:9/", "http://2130706433:9/", "http://0x7f000001:9/"])
      expect([url, ...refusal(await api.post("/v1/webhooks", { url, events: ["*"] }))]).toEqual([url, ...blocked]);
  });

  test("unknown events, fields and malformed URLs are 400s with details", async () => {
    const post = (body: unknown) => api.post("/v1/webhooks", body);
    expect(refusal(await post({ url: "https://a.example/", events: ["memory.exploded"] }))[2]).toMatchObject({
      field: "events.0",
      constraint: "enum",
    });
    expect(refusal(await post({ url: "https://a.example/", events: [] }))[2]).toMatchObject({ field: "events" });
    expect(refusal(await post({ url: "not a url", events: ["*"] }))[2]).toEqual({ field: "url", constraint: "format" });
    expect(refusal(await post({ url: "https://a.example/", events: ["*"], secret: "x" }))[2]).toMatchObject({
      constraint: "unknown_field",
    });
  });

  test("at most 20 endpoints per tenant and environment", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    for (let i = 0; i < 20; i++) await register(t.api, `https://hooks.example.com/${i}`);
    expect(refusal(await t.api.post("/v1/webhooks", { url: "https://hooks.example.com/x", events: ["*"] }))).toEqual([
      400,
      "VALIDATION_ERROR",
      { field: "webhooks", constraint: "max_count", max: 20 },
    ]);
  });
});

describe("changing and deleting", () => {
  test("PATCH changes only what is sent; enabled false is a manual disable, true clears it", async () => {
    const { id } = await register(api, "https://hooks.example.com/p", ["memory.created"], "before");
    const patched = await api.patch(`/v1/webhooks/${id}`, { events: ["memory.updated"], description: null });
    expect(patched.body.data).toMatchObject({ url: "https://hooks.example.com/p", events: ["memory.updated"] });
    expect(patched.body.data.description).toBeNull();
    const off = await api.patch(`/v1/webhooks/${id}`, { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, disabled_reason: "manual" });
    expect(off.body.data.disabled_at).toBeString();
    const on = await api.patch(`/v1/webhooks/${id}`, { enabled: true });
    expect(on.body.data).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
    expect(refusal(await api.patch(`/v1/webhooks/${id}`, { url: "http://10.0.0.1/" }))[2]).toEqual({
      field: "url",
      constraint: "blocked_address",
    });
    expect(refusal(await api.patch(`/v1/webhooks/${id}`, { id }))).toEqual([
      400,
      "VALIDATION_ERROR",
      { field: "id", constraint: "unknown_field" },
    ]);
  });

  test("DELETE removes the endpoint and its deliveries", async () => {
    const r = receiver(() => 500);
    const { id } = await register(api, r.url("/deleted"));
    await api.post(`/v1/webhooks/${id}/test`);
    await eventually(() => r.at("/deleted").length > 0, 10_000, "the ping");
    expect(await api.delete(`/v1/webhooks/${id}`)).toMatchObject({
      status: 200,
      body: { data: { id, deleted: true } },
    });
    expect((await api.get(`/v1/webhooks/${id}`)).status).toBe(404);
    expect((await api.get(`/v1/webhooks/${id}/deliveries`)).status).toBe(404);
    const before = r.at("/deleted").length;
    await Bun.sleep(1500); // the ping's retries would have come by now
    expect(r.at("/deleted").length).toBe(before);
  });

  test("rotate-secret answers a new secret and keeps the old one signing for 24 hours", async () => {
    const { id, secret } = await register(api, "https://hooks.example.com/r");
    const res = await api.post(`/v1/webhooks/${id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.body.data.secret).not.toBe(secret);
    const until = Date.parse(res.body.data.previous_secret_expires_at);
    expect(Math.abs(until - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    expect(res.body.data.message).toContain(res.body.data.previous_secret_expires_at);
  });
});

describe("access", () => {
  test("another tenant's endpoint, a test key's view of live ones and malformed ids are 404s", async () => {
    const { id } = await register(api, "https://hooks.example.com/mine");
    const other = await newTenant(stack.baseUrl, stack.adminKey);
    const notFound = { code: "NOT_FOUND", message: "Webhook not found" };
    for (const path of [
      `/v1/webhooks/${id}`,
      `/v1/webhooks/${id}/deliveries`,
      `/v1/webhooks/${UNKNOWN}`,
      "/v1/webhooks/nope",
    ])
      expect((await other.api.get(path)).body.error).toMatchObject(notFound);
    expect((await other.api.post(`/v1/webhooks/${id}/test`)).status).toBe(404);
    expect((await other.api.get("/v1/webhooks")).body.data).toEqual([]);
    const sandbox = await newTenant(stack.baseUrl, stack.adminKey, { environment: "test" });
    expect((await sandbox.api.get(`/v1/webhooks/${id}`)).status).toBe(404);
    const delivery = `/v1/webhooks/${id}/deliveries/${UNKNOWN}/retry`;
    expect((await api.post(delivery)).body.error).toMatchObject({ code: "NOT_FOUND", message: "Delivery not found" });
  });

  test("every webhook operation needs the admin scope", async () => {
    const reader = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["memories:read", "memories:write"] });
    const res = await reader.api.post("/v1/webhooks", { url: "https://hooks.example.com/", events: ["*"] });
    expect([res.status, res.body.error.message]).toEqual([403, "Missing required scope: admin"]);
    expect((await reader.api.get("/v1/webhooks")).status).toBe(403);
  });
});

describe("GraphQL", () => {
  test("create, read, update, rotate, test, list deliveries, retry and delete", async () => {
    const gql = gqlClient(stack.baseUrl, key);
    const r = receiver();
    const created = await gql.raw(
      `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) {
         secret webhook { id url events enabled environment } } }`,
      { input: { url: r.url("/gql"), events: ["MEMORY_CREATED", "MEMORY_DELETED"], description: "graphql" } },
    );
    expect(created.errors).toBeUndefined();
    const { webhook, secret } = created.data.createWebhook;
    expect(webhook).toMatchObject({ events: ["MEMORY_CREATED", "MEMORY_DELETED"], enabled: true, environment: "LIVE" });
    expect(secret).toStartWith("whsec_");
    const id = webhook.id;
    const updated = await gql.raw(
      `mutation($id: ID!) { updateWebhook(id: $id, input: {enabled: false}) { enabled disabledReason } }`,
      { id },
    );
    expect(updated.data.updateWebhook).toEqual({ enabled: false, disabledReason: "MANUAL" });
    const rotated = await gql.raw(
      `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook {
      previousSecretExpiresAt } } }`,
      { id },
    );
    expect(rotated.data.rotateWebhookSecret.webhook.previousSecretExpiresAt).toBeString();
    const ping = await gql.raw(`mutation($id: ID!) { testWebhook(id: $id) { id eventType status } }`, { id });
    expect(ping.data.testWebhook).toMatchObject({ eventType: "ping", status: "PENDING" });
    const done = await eventually(async () => {
      const page = await gql.raw(
        `query($id: ID!) { webhookDeliveries(id: $id, status: SUCCEEDED) { total hasMore
           items { id status attemptCount attempts { statusCode latencyMs error manual } } } }`,
        { id },
      );
      return page.data.webhookDeliveries.total === 1 && page.data.webhookDeliveries;
    });
    expect(done.items[0]).toMatchObject({ status: "SUCCEEDED", attemptCount: 1 });
    expect(done.items[0].attempts[0]).toMatchObject({ statusCode: 200, error: null, manual: true });
    const retried = await gql.raw(
      `mutation($id: ID!, $d: ID!) { retryWebhookDelivery(id: $id, deliveryId: $d) { id status } }`,
      { id, d: done.items[0].id },
    );
    expect(retried.data.retryWebhookDelivery).toEqual({ id: done.items[0].id, status: "PENDING" });
    await eventually(() => r.at("/gql").length === 2, 10_000, "the retried ping");
    const listed = await gql.raw(`{ webhooks(limit: 100) { total items { id } } webhook(id: "${id}") { url } }`);
    expect(listed.data.webhooks.items.map((w: any) => w.id)).toContain(id);
    expect(listed.data.webhook.url).toBe(r.url("/gql"));
    const deleted = await gql.raw(`mutation($id: ID!) { deleteWebhook(id: $id) { id deleted } }`, { id });
    expect(deleted.data.deleteWebhook).toEqual({ id, deleted: true });
    const gone = await gql.raw(`query($id: ID!) { webhook(id: $id) { id } }`, { id });
    expect(gone.errors?.[0]?.extensions.code).toBe("NOT_FOUND");
    expect(await deliveries(api, (await register(api, r.url("/x"))).id)).toEqual([]);
  });
});
