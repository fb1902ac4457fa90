import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { ENTITY_NAME_TAKEN, ENTITY_TYPES, expectNotFound, ok, tenant, UNKNOWN_ID } from "../memories/memory-helpers";

/** PATCH /v1/entities/:id: partial updates, renames that keep (name, type) unique, the validation of create. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("PATCH /v1/entities/:id", () => {
  test("only sent fields change; description null removes it; metadata replaced; updated_at refreshed", async () => {
    const e = await ok(
      api.post("/v1/entities", { name: "Patchable", type: "concept", description: "desc", metadata: { a: 1 } }),
    );
    await Bun.sleep(3);
    const p1 = await ok(api.patch(`/v1/entities/${e.id}`, { description: null }));
    expect(p1).toEqual({ ...e, description: null, updated_at: p1.updated_at });
    expect(Date.parse(p1.updated_at)).toBeGreaterThan(Date.parse(e.updated_at));
    const p2 = await ok(api.patch(`/v1/entities/${e.id}`, { metadata: { b: 2 }, type: "product", name: "Patched" }));
    expect(p2).toMatchObject({
      name: "Patched",
      type: "product",
      description: null,
      metadata: { b: 2 },
      created_at: e.created_at,
    });
    expect(await ok(api.get(`/v1/entities/${e.id}`))).toEqual(p2);
    expect(await ok(api.patch(`/v1/entities/${e.id}`, {}))).toEqual(p2);
  });

  test("renames keep (name, type) unique; renaming to its own name in another case is fine", async () => {
    const t = (await tenant()).api;
    const a = await ok(t.post("/v1/entities", { name: "Alpha", type: "person" }));
    const b = await ok(t.post("/v1/entities", { name: "Beta", type: "person" }));
    const c = await ok(t.post("/v1/entities", { name: "Alpha", type: "place" }));
    expectError(
      await t.patch(`/v1/entities/${b.id}`, { name: "ALPHA" }),
      400,
      "VALIDATION_ERROR",
      ...ENTITY_NAME_TAKEN,
    );
    expectError(
      await t.patch(`/v1/entities/${c.id}`, { type: "person" }),
      400,
      "VALIDATION_ERROR",
      ...ENTITY_NAME_TAKEN,
    );
    expect((await ok(t.patch(`/v1/entities/${a.id}`, { name: "ALPHA" }))).name).toBe("ALPHA");
    // The old name is free after a rename.
    expect((await ok(t.patch(`/v1/entities/${b.id}`, { name: "Gamma" }))).name).toBe("Gamma");
    expect((await ok(t.post("/v1/entities", { name: "beta", type: "person" }))).name).toBe("beta");
    expect((await ok(t.patch(`/v1/entities/${c.id}`, { type: "event" }))).type).toBe("event");
    expect((await ok(t.post("/v1/entities", { name: "alpha", type: "place" }))).type).toBe("place");
  });

  test("same validation as create; unknown or malformed id → 404", async () => {
    const e = await ok(api.post("/v1/entities", { name: "Validated", type: "other" }));
    const path = `/v1/entities/${e.id}`;
    expectError(await api.patch(path, { name: "" }), 400, "VALIDATION_ERROR", "name must not be empty", {
      field: "name",
      constraint: "required",
    });
    expectError(await api.patch(path, { name: null }), 400, "VALIDATION_ERROR", "name must be string", {
      field: "name",
      constraint: "type",
    });
    expectError(
      await api.patch(path, { type: "animal" }),
      400,
      "VALIDATION_ERROR",
      `type must be one of ${ENTITY_TYPES.join(", ")}`,
      { field: "type", constraint: "enum", allowed: ENTITY_TYPES },
    );
    expectError(
      await api.patch(path, { description: "d".repeat(1001) }),
      400,
      "VALIDATION_ERROR",
      "description must be at most 1000 characters",
      { field: "description", constraint: "max_length", max: 1000 },
    );
    expectError(
      await api.patch(path, { memory_count: 3 }),
      400,
      "VALIDATION_ERROR",
      "memory_count is not an accepted field",
      { field: "memory_count", constraint: "unknown_field" },
    );
    expect(await ok(api.get(path))).toEqual(e);
    expectNotFound(await api.patch(`/v1/entities/${UNKNOWN_ID}`, { name: "x" }), "Entity");
    expectNotFound(await api.patch("/v1/entities/bad", { name: "x" }), "Entity");
  });
});
