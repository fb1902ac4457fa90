import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, type ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { tenant } from "../memories/memory-helpers";
import { createTag } from "./tag-helpers";

/** Reaching tags: by id under both prefixes, across tenants and environments, and with which scopes. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("GET /v1/tags/:id", () => {
  test("returns the tag; unknown or malformed id is 404 Tag not found", async () => {
    const t = await createTag(api, { name: "gettable", color: "#ABCDEF" });
    const res = await api.get(`/v1/tags/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(t);
    expectError(await api.get(`/v1/tags/${crypto.randomUUID()}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await api.get("/v1/tags/not-a-uuid"), 404, "NOT_FOUND", "Tag not found");
  });

  test("also served under /api/v1", async () => {
    const t = await createTag(api, { name: "prefixed" });
    expect((await api.get(`/api/v1/tags/${t.id}`)).body.data).toEqual(t);
  });
});

describe("isolation and scopes", () => {
  test("another tenant's tag is 404 for get, patch and delete, and absent from its list", async () => {
    const a = await tenant();
    const b = await tenant();
    const t = await createTag(a.api, { name: "private" });
    expectError(await b.api.get(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await b.api.patch(`/v1/tags/${t.id}`, { name: "stolen" }), 404, "NOT_FOUND", "Tag not found");
    expectError(await b.api.delete(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expect((await b.api.get("/v1/tags")).body.meta.total).toBe(0);
    expect((await b.api.post("/v1/tags", { name: "private" })).status).toBe(200);
    expect((await a.api.get(`/v1/tags/${t.id}`)).body.data).toEqual(t);
  });

  test("test and live keys of one tenant see separate tags", async () => {
    const live = await tenant();
    const sandbox = await tenant({ tenant: live.tenant, environment: "test" });
    const t = await createTag(live.api, { name: "shared name" });
    expectError(await sandbox.api.get(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expect((await sandbox.api.get("/v1/tags")).body.meta.total).toBe(0);
    expect((await sandbox.api.post("/v1/tags", { name: "shared name" })).status).toBe(200);
    expect((await live.api.get("/v1/tags")).body.meta.total).toBe(1);
  });

  test("reads need memories:read, writes memories:write", async () => {
    const reader = await tenant({ scopes: ["memories:read"] });
    const writer = await tenant({ scopes: ["memories:write"], tenant: reader.tenant });
    expectError(
      await reader.api.post("/v1/tags", { name: "x" }),
      403,
      "FORBIDDEN",
      "Missing required scope: memories:write",
    );
    expect((await writer.api.post("/v1/tags", { name: "x" })).status).toBe(200);
    expectError(await writer.api.get("/v1/tags"), 403, "FORBIDDEN", "Missing required scope: memories:read");
    expect((await reader.api.get("/v1/tags")).body.meta.total).toBe(1);
    const unauth = apiClient((await testStack()).baseUrl);
    expect((await unauth.get("/v1/tags")).status).toBe(401);
  });
});
