import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { ENTITY_NAME_TAKEN, ENTITY_TYPES, ISO_MS, ok, tenant, UUID } from "../memories/memory-helpers";

/** POST /v1/entities: the fields, their rules, and (name, type) unique per tenant. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("POST /v1/entities", () => {
  test("creates an entity with every field", async () => {
    const res = await api.post("/v1/entities", {
      name: "Ada Lovelace",
      type: "person",
      description: "First programmer",
      metadata: { born: 1815, tags: ["math"] },
    });
    expect(res.status).toBe(200);
    const e = res.body.data;
    expect(e).toEqual({
      id: e.id,
      name: "Ada Lovelace",
      type: "person",
      description: "First programmer",
      metadata: { born: 1815, tags: ["math"] },
      memory_count: 0,
      created_at: e.created_at,
      updated_at: e.created_at,
    });
    expect(e.id).toMatch(UUID);
    expect(e.created_at).toMatch(ISO_MS);
    expect(await ok(api.get(`/v1/entities/${e.id}`))).toEqual(e);
  });

  test("description and metadata are optional (null and {})", async () => {
    expect(await ok(api.post("/v1/entities", { name: "Minimal", type: "other" }))).toMatchObject({
      description: null,
      metadata: {},
      memory_count: 0,
    });
    expect(await ok(api.post("/v1/entities", { name: "Nulls", type: "other", description: null }))).toMatchObject({
      description: null,
    });
  });

  test("name 1 to 200 characters; type one of the seven; Unicode round-trips", async () => {
    for (const type of ENTITY_TYPES)
      expect((await ok(api.post("/v1/entities", { name: `n-${type}`, type }))).type).toBe(type);
    expect((await ok(api.post("/v1/entities", { name: "n".repeat(200), type: "concept" }))).name).toBe("n".repeat(200));
    const unicode = "Zürich 🇨🇭 東京";
    expect((await ok(api.post("/v1/entities", { name: unicode, type: "place" }))).name).toBe(unicode);
    expectError(
      await api.post("/v1/entities", { name: "n".repeat(201), type: "concept" }),
      400,
      "VALIDATION_ERROR",
      "name must be at most 200 characters",
      { field: "name", constraint: "max_length", max: 200 },
    );
    expectError(
      await api.post("/v1/entities", { name: "", type: "concept" }),
      400,
      "VALIDATION_ERROR",
      "name must not be empty",
      { field: "name", constraint: "required" },
    );
    expectError(await api.post("/v1/entities", { type: "concept" }), 400, "VALIDATION_ERROR", "name is required", {
      field: "name",
      constraint: "required",
    });
    expectError(await api.post("/v1/entities", { name: "x" }), 400, "VALIDATION_ERROR", "type is required", {
      field: "type",
      constraint: "required",
    });
    expectError(
      await api.post("/v1/entities", { name: "x", type: "animal" }),
      400,
      "VALIDATION_ERROR",
      `type must be one of ${ENTITY_TYPES.join(", ")}`,
      { field: "type", constraint: "enum", allowed: ENTITY_TYPES },
    );
  });

  test("description at most 1000 characters; metadata limits as for memories", async () => {
    expect(
      (await ok(api.post("/v1/entities", { name: "d1000", type: "other", description: "d".repeat(1000) }))).description,
    ).toBe("d".repeat(1000));
    expectError(
      await api.post("/v1/entities", { name: "d1001", type: "other", description: "d".repeat(1001) }),
      400,
      "VALIDATION_ERROR",
      "description must be at most 1000 characters",
      {
        field: "description",
        constraint: "max_length",
        max: 1000,
      },
    );
    expectError(
      await api.post("/v1/entities", {
        name: "deep",
        type: "other",
        metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } },
      }),
      400,
      "VALIDATION_ERROR",
      "metadata must be at most 5 levels deep",
      {
        field: "metadata",
        constraint: "max_depth",
        max: 5,
      },
    );
    expectError(
      await api.post("/v1/entities", { name: "big", type: "other", metadata: { k: "x".repeat(16_377) } }),
      400,
      "VALIDATION_ERROR",
      "metadata must be at most 16384 bytes serialized",
      {
        field: "metadata",
        constraint: "max_bytes",
        max: 16384,
      },
    );
    expectError(
      await api.post("/v1/entities", { name: "arr", type: "other", metadata: [] }),
      400,
      "VALIDATION_ERROR",
      "metadata must be object",
      { field: "metadata", constraint: "type" },
    );
  });

  test("unknown fields are rejected", async () => {
    for (const field of ["id", "memory_count", "created_at", "tenant"]) {
      expectError(
        await api.post("/v1/entities", { name: "u", type: "other", [field]: 1 }),
        400,
        "VALIDATION_ERROR",
        `${field} is not an accepted field`,
        { field, constraint: "unknown_field" },
      );
    }
  });

  test("(name, type) is unique per tenant, case-insensitively; the same name with another type is fine", async () => {
    const t = (await tenant()).api;
    const acme = await ok(t.post("/v1/entities", { name: "Acme Corp", type: "organization" }));
    for (const name of ["Acme Corp", "acme corp", "ACME CORP"]) {
      const r = await t.post("/v1/entities", { name, type: "organization" });
      expectError(r, 400, "VALIDATION_ERROR", ...ENTITY_NAME_TAKEN);
      // The refusal names the entity that holds the name, so a client can use it instead.
      expect(r.body.error.details.existing_id).toBe(acme.id);
    }
    expect((await ok(t.post("/v1/entities", { name: "Acme Corp", type: "product" }))).type).toBe("product");
    await ok(t.post("/v1/entities", { name: "École", type: "place" }));
    expectError(
      await t.post("/v1/entities", { name: "ÉCOLE", type: "place" }),
      400,
      "VALIDATION_ERROR",
      ...ENTITY_NAME_TAKEN,
    );
    // Composed and decomposed forms of é are the same name.
    expectError(
      await t.post("/v1/entities", { name: "E\u0301cole", type: "place" }),
      400,
      "VALIDATION_ERROR",
      ...ENTITY_NAME_TAKEN,
    );
    // Another tenant may use the name.
    expect(
      (await ok((await tenant()).api.post("/v1/entities", { name: "Acme Corp", type: "organization" }))).name,
    ).toBe("Acme Corp");
  });

  test("concurrent creates of one (name, type): exactly one succeeds", async () => {
    const t = (await tenant()).api;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.post("/v1/entities", { name: i % 2 ? "RACE" : "race", type: "event" })),
    );
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    for (const r of results.filter((x) => x.status !== 200))
      expectError(r, 400, "VALIDATION_ERROR", ...ENTITY_NAME_TAKEN);
    expect((await t.get("/v1/entities")).body.meta.total).toBe(1);
  });
});
