import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, type ApiClient } from "../api";
import { gqlClient, type Gql } from "../graphql/graphql-helpers";
import type { Stack } from "../../scripts/stack/launch";

/**
 * A minted key never holds more than the key that minted it, and a changed key never more than the key
 * that changed it: the same 403 over REST and GraphQL.
 */
let stack: Stack;
let root: ApiClient;

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
});

interface Minter {
  rest: ApiClient;
  gql: Gql;
  tenant: string;
}

/** A key minted by the root key in a fresh tenant (the root key alone may set `plan`). */
async function minter(body: Record<string, unknown>): Promise<Minter> {
  const tenant = `m${crypto.randomUUID().slice(0, 8)}`;
  const res = await root.post("/v1/keys", { name: "minter", tenant_id: tenant, ...body });
  expect(res.status).toBe(200);
  const key = res.body.data.key;
  return { rest: apiClient(stack.baseUrl, key), gql: gqlClient(stack.baseUrl, key), tenant };
}

const CREATE = `mutation($input: CreateKeyInput!) {
  createKey(input: $input) { key apiKey { id scopes rateLimit plan } }
}`;
const GQL_ENUM: Record<string, string> = { "*": "ALL", admin: "ADMIN", "memories:read": "MEMORIES_READ", free: "FREE" };
const gqlInput = (b: Record<string, unknown>) => ({
  name: "minted",
  ...(b.scopes ? { scopes: (b.scopes as string[]).map((s) => GQL_ENUM[s] ?? s.toUpperCase().replace(":", "_")) } : {}),
  ...(b.plan ? { plan: String(b.plan).toUpperCase() } : {}),
  ...(b.rate_limit ? { rateLimit: b.rate_limit } : {}),
  ...(b.expires_at ? { expiresAt: b.expires_at } : {}),
});

/** Mints over both adapters; expects the same 403 with the same details from each. */
async function expectRefused(by: Minter, body: Record<string, unknown>, details: Record<string, unknown>) {
  const rest = await by.rest.post("/v1/keys", { name: "minted", ...body });
  expect(rest.status).toBe(403);
  expect(rest.body.error).toMatchObject({ code: "FORBIDDEN", details });
  const gql = await by.gql.raw(CREATE, { input: gqlInput(body) });
  expect(gql.data?.createKey).toBeNull();
  expect(gql.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", details });
  expect(gql.errors?.[0]?.message).toBe(rest.body.error.message);
}

describe("minting keys", () => {
  test("a free admin-only key cannot mint `*`, enterprise or 10,000,000/min (REST and GraphQL)", async () => {
    const admin = await minter({ scopes: ["admin"], plan: "free" });
    await expectRefused(
      admin,
      { scopes: ["*"], plan: "enterprise", rate_limit: 10_000_000 },
      {
        field: "scopes",
        refused: { scopes: ["*"], plan: "enterprise", rate_limit: 10_000_000 },
        allowed: { scopes: ["admin"], plan: "free", rate_limit: 100 },
      },
    );
    const keys = await admin.rest.get("/v1/keys");
    expect(keys.body.data.map((k: { name: string }) => k.name)).toEqual(["minter"]); // nothing was created
  });

  test("scopes: a subset of the minting key's; `*` only from `*`", async () => {
    const admin = await minter({ scopes: ["admin", "memories:read"], plan: "pro" });
    await expectRefused(admin, { scopes: ["*"] }, { field: "scopes", refused: { scopes: ["*"] } });
    const wider = { scopes: ["memories:read", "memories:write"] };
    await expectRefused(admin, wider, { refused: { scopes: ["memories:write"] } });
    const ok = await admin.rest.post("/v1/keys", { name: "reader", scopes: ["memories:read"] });
    expect(ok.body.data).toMatchObject({ scopes: ["memories:read"], plan: "pro" });
    const viaGql = await admin.gql.request(CREATE, { input: { name: "reader2", scopes: ["MEMORIES_READ", "ADMIN"] } });
    expect(viaGql.createKey.apiKey.scopes).toEqual(["MEMORIES_READ", "ADMIN"]);
  });

  test("rate_limit: at most the minting key's effective per-minute limit; the new key is held to it", async () => {
    const admin = await minter({ scopes: ["*"], plan: "pro", rate_limit: 50 });
    const refused = { field: "rate_limit", refused: { rate_limit: 51 }, allowed: { rate_limit: 50 } };
    await expectRefused(admin, { rate_limit: 51 }, refused);
    const ok = await admin.rest.post("/v1/keys", { name: "inherits" });
    expect(ok.body.data).toMatchObject({ rate_limit: 50, plan: "pro" });
    const res = await apiClient(stack.baseUrl, ok.body.data.key).get("/v1/tags");
    expect(res.headers.get("x-ratelimit-limit")).toBe("50"); // not pro's 1,000
  });

  test("plan: only the root key sets it; another key's keys are on its own plan", async () => {
    const admin = await minter({ scopes: ["*"], plan: "free" });
    await expectRefused(admin, { plan: "pro" }, { field: "plan", refused: { plan: "pro" }, allowed: { plan: "free" } });
    const ok = await admin.rest.post("/v1/keys", { name: "same plan", scopes: ["memories:read"] });
    expect(ok.body.data.plan).toBe("free");
    const res = await apiClient(stack.baseUrl, ok.body.data.key).get("/v1/memories");
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
  });

  test("expiry: a minted key expires no later than the minting key, and with it by default", async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const admin = await minter({ scopes: ["*"], expires_at: until });
    const later = new Date(Date.now() + 7_200_000).toISOString();
    const refused = { field: "expires_at", refused: { expires_at: later }, allowed: { expires_at: until } };
    await expectRefused(admin, { expires_at: later }, refused);
    expect((await admin.rest.post("/v1/keys", { name: "inherits" })).body.data.expires_at).toBe(until);
  });

  test("a test key mints test keys only, in its own tenant", async () => {
    const admin = await minter({ scopes: ["*"], environment: "test" });
    await expectRefused(admin, {}, { field: "environment", refused: { environment: "live" } });
    const rest = await admin.rest.post("/v1/keys", { name: "x", environment: "test", tenant_id: "elsewhere" });
    expect(rest.body.error).toMatchObject({ code: "FORBIDDEN", details: { refused: { tenant_id: "elsewhere" } } });
  });
});

const UPDATE = `mutation($id: ID!, $input: UpdateKeyInput!) {
  updateKey(id: $id, input: $input) { id name scopes rateLimit expiresAt }
}`;

describe("changing keys: the minting rule", () => {
  test("PATCH and updateKey refuse what the calling key could not mint, naming each field; no change", async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const admin = await minter({ scopes: ["admin"], plan: "free", expires_at: until });
    const wide = await root.post("/v1/keys", { name: "wide", tenant_id: admin.tenant, scopes: ["*"], plan: "pro" });
    const id = wide.body.data.id;
    const details = {
      field: "scopes",
      refused: { scopes: ["*"], rate_limit: 10_000_000, expires_at: null },
      allowed: { scopes: ["admin"], rate_limit: 100, expires_at: until },
    };
    const body = { name: "mine now", scopes: ["*"], rate_limit: 10_000_000, expires_at: null };
    const rest = await admin.rest.patch(`/v1/keys/${id}`, body);
    expect(rest.status).toBe(403);
    expect(rest.body.error).toEqual({
      code: "FORBIDDEN",
      message: "A key cannot grant more than it holds: scopes, rate_limit, expires_at",
      details,
    });
    const input = { name: "mine now", scopes: ["ALL"], rateLimit: 10_000_000, expiresAt: null };
    const gql = await admin.gql.raw(UPDATE, { id, input });
    expect(gql.data?.updateKey).toBeNull();
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", details });
    expect(gql.errors?.[0]?.message).toBe(rest.body.error.message);
    // The key's plan limit (pro: 1,000/min) is above the calling key's 100: `rate_limit: null` asks for it.
    const planLimit = await admin.rest.patch(`/v1/keys/${id}`, { rate_limit: null });
    expect(planLimit.body.error.details).toEqual({
      field: "rate_limit",
      refused: { rate_limit: null },
      allowed: { rate_limit: 100 },
    });
    const { key: _secret, message: _message, ...record } = wide.body.data;
    expect((await admin.rest.get(`/v1/keys/${id}`)).body.data).toEqual(record);
  });

  test("narrowing within what the calling key holds is allowed, over REST and GraphQL alike", async () => {
    const admin = await minter({ scopes: ["admin", "memories:read"], plan: "free" });
    const wide = await root.post("/v1/keys", { name: "wide", tenant_id: admin.tenant, scopes: ["*"], plan: "pro" });
    const id = wide.body.data.id;
    const rest = await admin.rest.patch(`/v1/keys/${id}`, { scopes: ["memories:read"], rate_limit: 50 });
    expect(rest.body.data).toMatchObject({ scopes: ["memories:read"], rate_limit: 50, plan: "pro" });
    const gql = await admin.gql.request(UPDATE, { id, input: { scopes: ["ADMIN"], rateLimit: 100 } });
    expect(gql.updateKey).toMatchObject({ id, scopes: ["ADMIN"], rateLimit: 100 });
  });

  test("a key changing itself stays within itself: it can narrow, never widen or outlive itself", async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const self = await minter({ scopes: ["admin", "memories:read"], expires_at: until });
    const id = (await self.rest.get("/v1/keys")).body.data[0].id;
    const wider = await self.rest.patch(`/v1/keys/${id}`, { scopes: ["admin", "memories:write"] });
    expect(wider.body.error).toMatchObject({ code: "FORBIDDEN", details: { refused: { scopes: ["memories:write"] } } });
    const forever = await self.rest.patch(`/v1/keys/${id}`, { expires_at: null });
    expect(forever.body.error).toMatchObject({
      details: { refused: { expires_at: null }, allowed: { expires_at: until } },
    });
    const narrowed = await self.rest.patch(`/v1/keys/${id}`, { scopes: ["admin"] });
    expect(narrowed.body.data.scopes).toEqual(["admin"]);
    expect((await self.rest.get("/v1/memories")).status).toBe(403); // within the second, on this gateway
  });
});
