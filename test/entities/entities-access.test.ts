import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { createMemory, expectNotFound, ids, ok, tenant, UNKNOWN_ID } from "../memories/memory-helpers";

/** Reaching entities: unknown and malformed ids, other tenants and environments, and scopes. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("GET /v1/entities/:id", () => {
  test("unknown or malformed id → 404", async () => {
    expectNotFound(await api.get(`/v1/entities/${UNKNOWN_ID}`), "Entity");
    expectNotFound(await api.get("/v1/entities/not-a-uuid"), "Entity");
  });
});

describe("isolation and scopes", () => {
  test("another tenant's or environment's entity is a 404 everywhere", async () => {
    const a = await tenant();
    const b = await tenant();
    const sandbox = await tenant({ tenant: a.tenant, environment: "test" });
    const e = await ok(a.api.post("/v1/entities", { name: "Private", type: "concept" }));
    const m = await createMemory(a.api);
    for (const other of [b.api, sandbox.api]) {
      expectNotFound(await other.get(`/v1/entities/${e.id}`), "Entity");
      expectNotFound(await other.patch(`/v1/entities/${e.id}`, { name: "x" }), "Entity");
      expectNotFound(await other.delete(`/v1/entities/${e.id}`), "Entity");
      expectNotFound(await other.post(`/v1/entities/${e.id}/memories`, { memory_ids: [m.id] }), "Entity");
      expectNotFound(await other.delete(`/v1/entities/${e.id}/memories/${m.id}`), "Entity");
      expect((await other.get("/v1/entities")).body.meta.total).toBe(0);
      // Their own entity cannot link a foreign memory.
      const own = await ok(other.post("/v1/entities", { name: "Own", type: "concept" }));
      expectError(
        await other.post(`/v1/entities/${own.id}/memories`, { memory_ids: [m.id] }),
        404,
        "NOT_FOUND",
        "Memory not found",
        { missing: [m.id] },
      );
      expectError(
        await other.post("/v1/entities", { name: "Own2", type: "concept", memory_ids: [m.id] }),
        400,
        "VALIDATION_ERROR",
        "memory_ids must name existing memories",
        {
          field: "memory_ids",
          constraint: "exists",
          missing: [m.id],
        },
      );
    }
    expect(await ok(a.api.get(`/v1/entities/${e.id}`))).toEqual(e);
  });

  test("reads need memories:read, writes memories:write", async () => {
    const owner = await tenant();
    const e = await ok(owner.api.post("/v1/entities", { name: "Scoped", type: "other" }));
    const reader = await tenant({ tenant: owner.tenant, scopes: ["memories:read"] });
    expect(await ok(reader.api.get(`/v1/entities/${e.id}`))).toEqual(e);
    expect((await reader.api.get("/v1/entities")).body.meta.total).toBe(1);
    const m = await createMemory(owner.api);
    for (const res of [
      await reader.api.post("/v1/entities", { name: "No", type: "other" }),
      await reader.api.patch(`/v1/entities/${e.id}`, { name: "No" }),
      await reader.api.delete(`/v1/entities/${e.id}`),
      await reader.api.post(`/v1/entities/${e.id}/memories`, { memory_ids: [m.id] }),
      await reader.api.delete(`/v1/entities/${e.id}/memories/${m.id}`),
    ]) {
      expectError(res, 403, "FORBIDDEN", "Missing required scope: memories:write");
    }
    const writer = await tenant({ tenant: owner.tenant, scopes: ["memories:write"] });
    expectError(
      await writer.api.get(`/v1/entities/${e.id}`),
      403,
      "FORBIDDEN",
      "Missing required scope: memories:read",
    );
    expectError(await writer.api.get("/v1/entities"), 403, "FORBIDDEN", "Missing required scope: memories:read");
  });
});
