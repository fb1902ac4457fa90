import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { createMemory, expectNotFound, ok, tenant, UNKNOWN_ID } from "./memory-helpers";

/** Reaching one memory: unknown and malformed ids, the scopes a key needs, both path prefixes. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("GET /v1/memories/:id", () => {
  test("unknown id → 404; a malformed id → 404 (never 500)", async () => {
    expectNotFound(await api.get(`/v1/memories/${UNKNOWN_ID}`));
    for (const bad of ["not-a-uuid", "123", "%20", "00000000-0000-0000-0000-00000000000g"])
      expectNotFound(await api.get(`/v1/memories/${bad}`));
  });
});

describe("scopes", () => {
  test("reads need memories:read, writes memories:write", async () => {
    const owner = await tenant();
    const m = await createMemory(owner.api);
    const reader = await tenant({ tenant: owner.tenant, scopes: ["memories:read"] });
    expect((await ok(reader.api.get(`/v1/memories/${m.id}`))).id).toBe(m.id);
    expect((await ok(reader.api.get("/v1/memories"))).length).toBe(1);
    for (const res of [
      await reader.api.post("/v1/memories", { content: "x" }),
      await reader.api.patch(`/v1/memories/${m.id}`, { content: "x" }),
      await reader.api.delete(`/v1/memories/${m.id}`),
    ]) {
      expectError(res, 403, "FORBIDDEN", "Missing required scope: memories:write");
    }
    const writer = await tenant({ tenant: owner.tenant, scopes: ["memories:write"] });
    expectError(
      await writer.api.get(`/v1/memories/${m.id}`),
      403,
      "FORBIDDEN",
      "Missing required scope: memories:read",
    );
    expectError(await writer.api.get("/v1/memories"), 403, "FORBIDDEN", "Missing required scope: memories:read");
    expect((await ok(writer.api.patch(`/v1/memories/${m.id}`, { content: "by writer" }))).content).toBe("by writer");
  });

  test("the /api/v1 prefix serves the same memories", async () => {
    const m = await createMemory(api, { content: "both prefixes" });
    expect((await ok(api.get(`/api/v1/memories/${m.id}`))).content).toBe("both prefixes");
  });
});
