import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";

/** One key read, changed and given a new secret over REST, against the real stack. */
let stack: Stack;
let root: ApiClient;

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
});

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const NOT_FOUND = { code: "NOT_FOUND", message: "API key not found" };
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** The root key's id: the oldest key of tenant `default`, listed last. */
async function rootKeyId(): Promise<string> {
  const { meta } = (await root.get("/v1/keys?limit=1")).body;
  const last = await root.get(`/v1/keys?limit=1&offset=${meta.total - 1}`);
  expect(last.body.data[0].name).toBe("root (bootstrap)");
  return last.body.data[0].id;
}

/** An admin key of a fresh tenant, and a key it minted there. */
async function adminAndKey(body: Record<string, unknown> = {}) {
  const admin = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
  const res = await admin.api.post("/v1/keys", { name: "managed", scopes: ["memories:read"], ...body });
  expect(res.status).toBe(200);
  const key = res.body.data;
  return { admin, key, secret: key.key as string };
}

describe("GET /v1/keys/:id", () => {
  test("the key as the list shows it: never the secret or its hash", async () => {
    const { admin, key, secret } = await adminAndKey({ rate_limit: 7, expires_at: inAnHour() });
    const res = await admin.api.get(`/v1/keys/${key.id}`);
    expect(res.status).toBe(200);
    const listed = (await admin.api.get("/v1/keys")).body.data.find((k: { id: string }) => k.id === key.id);
    expect(res.body.data).toEqual(listed);
    const { key: _secret, message: _message, ...record } = key;
    expect(res.body.data).toEqual(record);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(new Bun.CryptoHasher("sha256").update(secret).digest("hex"));
  });

  test("unknown and malformed ids are 404 API key not found", async () => {
    const { admin } = await adminAndKey();
    for (const id of [UNKNOWN_ID, "not-a-key"]) {
      const res = await admin.api.get(`/v1/keys/${id}`);
      expect([res.status, res.body.error]).toEqual([404, NOT_FOUND]);
    }
  });
});

describe("isolation", () => {
  test("another tenant's key is 404 on GET, PATCH and rotate, and stays as it was", async () => {
    const mine = await adminAndKey();
    const theirs = await adminAndKey();
    const paths = [
      ["GET", `/v1/keys/${theirs.key.id}`, undefined],
      ["PATCH", `/v1/keys/${theirs.key.id}`, { name: "taken over", scopes: ["*"] }],
      ["POST", `/v1/keys/${theirs.key.id}/rotate`, {}],
    ] as const;
    for (const [method, path, body] of paths) {
      const res = await mine.admin.api.raw(method, path, body);
      expect([method, res.status, res.body.error]).toEqual([method, 404, NOT_FOUND]);
    }
    const after = await theirs.admin.api.get(`/v1/keys/${theirs.key.id}`);
    expect(after.body.data).toMatchObject({ name: "managed", scopes: ["memories:read"], prefix: theirs.key.prefix });
    expect((await apiClient(stack.baseUrl, theirs.secret).get("/v1/memories")).status).toBe(200);
  });

  test("a test key manages test keys only: a live key of its own tenant is 404", async () => {
    const { admin, key } = await adminAndKey();
    const sandbox = await newTenant(stack.baseUrl, stack.adminKey, {
      scopes: ["*"],
      environment: "test",
      tenant: admin.tenant,
    });
    for (const [method, path, body] of [
      ["GET", `/v1/keys/${key.id}`, undefined],
      ["PATCH", `/v1/keys/${key.id}`, { name: "x" }],
      ["POST", `/v1/keys/${key.id}/rotate`, {}],
    ] as const) {
      const res = await sandbox.api.raw(method, path, body);
      expect([method, res.status, res.body.error]).toEqual([method, 404, NOT_FOUND]);
    }
    const own = await sandbox.api.post("/v1/keys", { name: "t", environment: "test", scopes: ["memories:read"] });
    expect((await sandbox.api.patch(`/v1/keys/${own.body.data.id}`, { name: "u" })).body.data.name).toBe("u");
  });

  test("the three need `admin`, on the key's own id too: 403 Missing required scope: admin", async () => {
    const { key, secret } = await adminAndKey();
    const reader = apiClient(stack.baseUrl, secret); // the key itself: without admin it cannot rotate itself
    const forbidden = { code: "FORBIDDEN", message: "Missing required scope: admin" };
    expect((await reader.get(`/v1/keys/${key.id}`)).body.error).toEqual(forbidden);
    expect((await reader.patch(`/v1/keys/${key.id}`, { name: "x" })).body.error).toEqual(forbidden);
    const rotated = await reader.post(`/v1/keys/${key.id}/rotate`, {});
    expect([rotated.status, rotated.body.error]).toEqual([403, forbidden]);
  });
});

/** Until the key's record shows that it was used. */
async function waitForLastUse(api: ApiClient, id: string) {
  const deadline = Date.now() + 10_000;
  while ((await api.get(`/v1/keys/${id}`)).body.data.last_used_at === null) {
    if (Date.now() > deadline) throw new Error("the key's use never reached its record");
    await Bun.sleep(50);
  }
}

describe("PATCH /v1/keys/:id", () => {
  test("only the fields sent change; null removes a limit or an expiry; the API follows at once", async () => {
    const { admin, key, secret } = await adminAndKey({ rate_limit: 7, expires_at: inAnHour() });
    const res = await admin.api.patch(`/v1/keys/${key.id}`, { scopes: ["memories:read", "memories:write"] });
    expect(res.status).toBe(200);
    const { key: _s, message: _m, ...record } = key;
    expect(res.body.data).toEqual({ ...record, scopes: ["memories:read", "memories:write"] });
    const user = apiClient(stack.baseUrl, secret);
    expect((await user.post("/v1/memories", { content: "now allowed" })).status).toBe(200);
    // The key's use reaches its record with a usage batch (500 ms): wait for it, so no batch lands between the
    // patch's answer and the read that compares with it.
    await waitForLastUse(admin.api, key.id);
    const cleared = await admin.api.patch(`/v1/keys/${key.id}`, {
      name: "renamed",
      rate_limit: null,
      expires_at: null,
    });
    expect(cleared.body.data).toMatchObject({ name: "renamed", rate_limit: null, expires_at: null });
    expect((await admin.api.get(`/v1/keys/${key.id}`)).body.data).toEqual(cleared.body.data);
    expect((await user.get("/v1/tags")).headers.get("x-ratelimit-limit")).not.toBe("7");
  });

  test("an empty body changes nothing and answers the key (200)", async () => {
    const { admin, key } = await adminAndKey();
    const before = await admin.api.get(`/v1/keys/${key.id}`);
    const res = await admin.api.patch(`/v1/keys/${key.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(before.body.data);
  });

  test("validation: each bad field is a 400 with its details; nothing changes", async () => {
    const { admin, key } = await adminAndKey();
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ plan: "pro" }, { field: "plan", constraint: "unknown_field" }],
      [{ environment: "test" }, { field: "environment", constraint: "unknown_field" }],
      [{ name: "" }, { field: "name", constraint: "required" }],
      [{ name: "x".repeat(101) }, { field: "name", constraint: "max_length", max: 100 }],
      [{ scopes: [] }, { field: "scopes", constraint: "min_items", min: 1 }],
      [{ scopes: ["memories:read", "memories:read"] }, { field: "scopes", constraint: "unique" }],
      [{ scopes: ["root"] }, { field: "scopes.0", constraint: "enum" }],
      [{ rate_limit: 0 }, { field: "rate_limit", constraint: "minimum", min: 1 }],
      [{ rate_limit: "10" }, { field: "rate_limit", constraint: "type" }],
      [{ expires_at: "tomorrow" }, { field: "expires_at", constraint: "format" }],
      [{ expires_at: "2001-01-01T00:00:00Z" }, { field: "expires_at", constraint: "future" }],
    ];
    for (const [body, details] of cases) {
      const res = await admin.api.patch(`/v1/keys/${key.id}`, body);
      expect([body, res.status]).toEqual([body, 400]);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details });
    }
    const { key: _s, message: _m, ...record } = key;
    expect((await admin.api.get(`/v1/keys/${key.id}`)).body.data).toEqual(record);
  });

  test("a revoked key and the root key cannot be changed or rotated (403)", async () => {
    const { admin, key } = await adminAndKey();
    expect((await admin.api.delete(`/v1/keys/${key.id}`)).status).toBe(200);
    const revoked = { code: "FORBIDDEN", message: "The API key is revoked: it can no longer be changed" };
    expect((await admin.api.patch(`/v1/keys/${key.id}`, { name: "x" })).body.error).toEqual(revoked);
    expect((await admin.api.post(`/v1/keys/${key.id}/rotate`, {})).body.error).toEqual(revoked);
    const rootId = await rootKeyId();
    const rootKey = { code: "FORBIDDEN", message: "The root key is set by BOOTSTRAP_ADMIN_KEY: change it there" };
    expect((await root.patch(`/v1/keys/${rootId}`, { name: "x" })).body.error).toEqual(rootKey);
    expect((await root.post(`/v1/keys/${rootId}/rotate`, {})).body.error).toEqual(rootKey);
    expect((await root.get("/v1/tags")).status).toBe(200);
  });
});

describe("POST /v1/keys/:id/rotate", () => {
  test("a new secret for the same record, shown once as at creation; the old secret fails at once", async () => {
    const { admin, key, secret } = await adminAndKey({ rate_limit: 7, expires_at: inAnHour() });
    const res = await admin.api.post(`/v1/keys/${key.id}/rotate`, {});
    expect(res.status).toBe(200);
    const rotated = res.body.data;
    expect(Object.keys(rotated).sort()).toEqual(Object.keys(key).sort());
    expect(rotated.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(rotated.key).not.toBe(secret);
    expect(rotated.prefix).toBe(rotated.key.slice(0, 13));
    const same = ["id", "name", "scopes", "rate_limit", "plan", "environment", "tenant_id", "expires_at", "created_at"];
    for (const field of same) expect([field, rotated[field]]).toEqual([field, key[field]]);
    expect((await apiClient(stack.baseUrl, secret).get("/v1/memories")).status).toBe(401);
    expect((await apiClient(stack.baseUrl, rotated.key).get("/v1/memories")).status).toBe(200);
    const listed = await admin.api.get(`/v1/keys/${key.id}`);
    expect(listed.body.data.prefix).toBe(rotated.prefix);
    expect(JSON.stringify(listed.body)).not.toContain(rotated.key);
  });

  test("a test key's new secret is a test secret", async () => {
    const sandbox = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], environment: "test" });
    const res = await sandbox.api.post(`/v1/keys/${sandbox.keyId}/rotate`, {});
    expect(res.body.data.key).toMatch(/^svc_test_/);
    expect(res.body.data.environment).toBe("test");
  });

  test("an admin key can always rotate itself: its old secret then fails, the new one answers", async () => {
    const self = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin", "memories:read"], rate_limit: 9 });
    // Its own expiry and limit are no more than it holds: the minting rule never refuses a key itself.
    expect((await self.api.patch(`/v1/keys/${self.keyId}`, { expires_at: inAnHour() })).status).toBe(200);
    const res = await self.api.post(`/v1/keys/${self.keyId}/rotate`, {});
    expect(res.status).toBe(200);
    expect((await self.api.get("/v1/keys")).status).toBe(401);
    expect((await apiClient(stack.baseUrl, res.body.data.key).get(`/v1/keys/${self.keyId}`)).status).toBe(200);
  });

  test("grace_seconds: 0–86400; the body takes nothing else", async () => {
    const { admin, key, secret } = await adminAndKey();
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ grace_seconds: -1 }, { field: "grace_seconds", constraint: "minimum", min: 0 }],
      [{ grace_seconds: 86_401 }, { field: "grace_seconds", constraint: "maximum", max: 86_400 }],
      [{ grace_seconds: 1.5 }, { field: "grace_seconds", constraint: "type" }],
      [{ grace: 10 }, { field: "grace", constraint: "unknown_field" }],
    ];
    for (const [body, details] of cases) {
      const res = await admin.api.post(`/v1/keys/${key.id}/rotate`, body);
      expect([body, res.status, res.body.error?.details]).toEqual([body, 400, details]);
    }
    expect((await apiClient(stack.baseUrl, secret).get("/v1/memories")).status).toBe(200); // not rotated
    const longest = await admin.api.post(`/v1/keys/${key.id}/rotate`, { grace_seconds: 86_400 });
    expect(longest.status).toBe(200);
    expect(longest.body.data.message).toMatch(/The previous secret works until \d{4}-\d\d-\d\dT/);
  });

  test("revoking a rotated key ends both secrets at once", async () => {
    const { admin, key, secret } = await adminAndKey();
    const rotated = (await admin.api.post(`/v1/keys/${key.id}/rotate`, { grace_seconds: 600 })).body.data.key;
    for (const s of [secret, rotated]) expect((await apiClient(stack.baseUrl, s).get("/v1/memories")).status).toBe(200);
    expect((await admin.api.delete(`/v1/keys/${key.id}`)).status).toBe(200);
    for (const s of [secret, rotated]) expect((await apiClient(stack.baseUrl, s).get("/v1/memories")).status).toBe(401);
  });

  test("a key cannot rotate a key holding more than itself (it would receive its secret)", async () => {
    const admin = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    const wide = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], tenant: admin.tenant });
    const res = await admin.api.post(`/v1/keys/${wide.keyId}/rotate`, {});
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: "FORBIDDEN",
      details: { field: "scopes", refused: { scopes: ["*"] }, allowed: { scopes: ["admin"] } },
    });
    expect((await wide.api.get("/v1/memories")).status).toBe(200);
  });
});
