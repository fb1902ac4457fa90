import { describe, expect, test, beforeAll } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { expectEnvelopeError } from "../envelope-helpers";

/** API keys over REST: create, list, the tenant and environment rules, revocation and expiry. */
let stack: Stack;
let root: ApiClient;

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
});

describe("keys", () => {
  test("create returns the secret once with the default scopes; list never shows a secret or hash", async () => {
    const created = await root.post("/v1/keys", { name: "ci key" });
    expect(created.status).toBe(200);
    const k = created.body.data;
    expect(k.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(k.scopes).toEqual(["memories:read", "memories:write", "search:read"]);
    expect(k.message).toContain("securely");
    expect(k.environment).toBe("live");
    const list = await root.get("/v1/keys?limit=100");
    const listed = list.body.data.find((x: any) => x.id === k.id);
    expect(listed.prefix).toBe(k.key.slice(0, 13));
    expect(JSON.stringify(list.body)).not.toContain(k.key);
    expect(listed.key).toBeUndefined();
    expect(listed.hash).toBeUndefined();
  });

  test.each([
    [{}, "name", "required"],
    [{ name: "" }, "name", "required"],
    [{ name: "x".repeat(101) }, "name", "max_length"],
    [{ name: "a", scopes: ["memories:delete"] }, "scopes.0", "enum"],
    [{ name: "a", rate_limit: 0 }, "rate_limit", "minimum"],
    [{ name: "a", rate_limit: 1.5 }, "rate_limit", "type"],
    [{ name: "a", environment: "prod" }, "environment", "enum"],
    [{ name: "a", expires_at: "tomorrow" }, "expires_at", "format"],
    [{ name: "a", expires_at: "2001-01-01T00:00:00Z" }, "expires_at", "future"],
    [{ name: "a", owner: "me" }, "owner", "unknown_field"],
  ])("create %j → 400 %s/%s", async (body, field, constraint) => {
    const res = await root.post("/v1/keys", body);
    expectEnvelopeError(res, 400, "VALIDATION_ERROR");
    expect(res.body.error.details.field).toBe(field);
    expect(res.body.error.details.constraint).toBe(constraint);
  });

  test("missing name has the message 'name is required'", async () => {
    const res = await root.post("/v1/keys", {});
    expect(res.body.error.message).toBe("name is required");
  });

  test("only the root key may set tenant_id", async () => {
    const { api } = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    const res = await api.post("/v1/keys", { name: "x", tenant_id: "someone-else" });
    expectEnvelopeError(res, 403, "FORBIDDEN");
  });

  test("a test key cannot mint live keys and sees only test keys", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
    const testKey = await t.api.post("/v1/keys", { name: "sandbox admin", scopes: ["admin"], environment: "test" });
    expect(testKey.body.data.key).toMatch(/^svc_test_/);
    const sandbox = apiClient(stack.baseUrl, testKey.body.data.key);
    expectEnvelopeError(await sandbox.post("/v1/keys", { name: "live one" }), 403, "FORBIDDEN");
    const list = await sandbox.get("/v1/keys");
    expect(list.status).toBe(200);
    expect(list.body.data.every((k: any) => k.environment === "test")).toBe(true);
  });

  test("revoked keys get 401 on the next request (cache evicted by broadcast)", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    expect((await t.api.get("/v1/keys")).status).toBe(200); // now cached in the gateway
    const revoked = await root.delete(`/v1/keys/${t.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: t.keyId, revoked: true });
    await Bun.sleep(200);
    expectEnvelopeError(await t.api.get("/v1/keys"), 401, "UNAUTHORIZED");
    const sameTenant = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"], tenant: t.tenant });
    const again = await sameTenant.api.get("/v1/keys?limit=100");
    expect(again.body.data.find((k: any) => k.id === t.keyId).revoked_at).not.toBeNull();
  });

  test("revoking another tenant's key is a 404", async () => {
    const a = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    const b = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["admin"] });
    expectEnvelopeError(await a.api.delete(`/v1/keys/${b.keyId}`), 404, "NOT_FOUND");
  });

  test("an expired key is rejected", async () => {
    const created = await root.post("/v1/keys", {
      name: "short-lived",
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    const api = apiClient(stack.baseUrl, created.body.data.key);
    expect((await api.get("/v1/tags")).status).not.toBe(401);
    await Bun.sleep(1700);
    expectEnvelopeError(await api.get("/v1/tags"), 401, "UNAUTHORIZED");
  });
});
