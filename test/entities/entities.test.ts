import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import {
  createMemory,
  expectNotFound,
  ids,
  ISO_MS,
  listAll,
  ok,
  tenant,
  UNKNOWN_ID,
  UUID,
} from "../memories/memory-helpers";
import { expectError } from "../envelope-helpers";

/** Entities: resource rules. Links to memories: entities-links.test.ts. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

const TYPES = ["person", "organization", "place", "product", "event", "concept", "other"];
const UNIQUE = [
  "An entity with this name and type already exists",
  { field: "name", constraint: "unique", existing_id: expect.any(String) },
] as const;

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
    for (const type of TYPES) expect((await ok(api.post("/v1/entities", { name: `n-${type}`, type }))).type).toBe(type);
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
      `type must be one of ${TYPES.join(", ")}`,
      { field: "type", constraint: "enum", allowed: TYPES },
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
      expectError(r, 400, "VALIDATION_ERROR", ...UNIQUE);
      // The refusal names the entity that holds the name, so a client can use it instead.
      expect(r.body.error.details.existing_id).toBe(acme.id);
    }
    expect((await ok(t.post("/v1/entities", { name: "Acme Corp", type: "product" }))).type).toBe("product");
    await ok(t.post("/v1/entities", { name: "École", type: "place" }));
    expectError(await t.post("/v1/entities", { name: "ÉCOLE", type: "place" }), 400, "VALIDATION_ERROR", ...UNIQUE);
    // Composed and decomposed forms of é are the same name.
    expectError(
      await t.post("/v1/entities", { name: "E\u0301cole", type: "place" }),
      400,
      "VALIDATION_ERROR",
      ...UNIQUE,
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
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 400, "VALIDATION_ERROR", ...UNIQUE);
    expect((await t.get("/v1/entities")).body.meta.total).toBe(1);
  });
});

describe("GET /v1/entities/:id", () => {
  test("unknown or malformed id → 404", async () => {
    expectNotFound(await api.get(`/v1/entities/${UNKNOWN_ID}`), "Entity");
    expectNotFound(await api.get("/v1/entities/not-a-uuid"), "Entity");
  });
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
    expectError(await t.patch(`/v1/entities/${b.id}`, { name: "ALPHA" }), 400, "VALIDATION_ERROR", ...UNIQUE);
    expectError(await t.patch(`/v1/entities/${c.id}`, { type: "person" }), 400, "VALIDATION_ERROR", ...UNIQUE);
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
      `type must be one of ${TYPES.join(", ")}`,
      { field: "type", constraint: "enum", allowed: TYPES },
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

describe("DELETE /v1/entities/:id", () => {
  test("→ {id, deleted: true}; then 404; the name is free again", async () => {
    const e = await ok(api.post("/v1/entities", { name: "Doomed", type: "event" }));
    expect(await ok(api.delete(`/v1/entities/${e.id}`))).toEqual({ id: e.id, deleted: true });
    expectNotFound(await api.get(`/v1/entities/${e.id}`), "Entity");
    expectNotFound(await api.delete(`/v1/entities/${e.id}`), "Entity");
    expectNotFound(await api.delete("/v1/entities/bad"), "Entity");
    expect((await ok(api.post("/v1/entities", { name: "doomed", type: "event" }))).name).toBe("doomed");
  });
});

describe("GET /v1/entities", () => {
  test("newest first, paginated, exact totals; search: case-insensitive partial name match; type filters", async () => {
    const t = (await tenant()).api;
    const made = [];
    for (const [name, type] of [
      ["Ada Lovelace", "person"],
      ["Charles Babbage", "person"],
      ["Analytical Engine", "product"],
      ["London", "place"],
      ["Royal Society", "organization"],
      ["Ada (language)", "product"],
      ["Zürich", "place"],
    ]) {
      made.push(await ok(t.post("/v1/entities", { name, type })));
      await Bun.sleep(2);
    }
    const newest = ids(made).reverse();
    expect(ids(await listAll(t, "/v1/entities"))).toEqual(newest);
    const page = await t.get("/v1/entities?limit=2&offset=2");
    expect(ids(page.body.data)).toEqual(newest.slice(2, 4));
    expect(page.body.meta).toMatchObject({ total: 7, limit: 2, offset: 2, has_more: true });

    const q = async (qs: string) => {
      const res = await t.get(`/v1/entities?${qs}`);
      return { names: res.body.data.map((e: { name: string }) => e.name), total: res.body.meta.total };
    };
    expect(await q("search=ada")).toEqual({ names: ["Ada (language)", "Ada Lovelace"], total: 2 });
    expect(await q("search=ADA")).toEqual({ names: ["Ada (language)", "Ada Lovelace"], total: 2 });
    expect(await q("search=on")).toEqual({ names: ["London"], total: 1 });
    expect(await q("search=gin")).toEqual({ names: ["Analytical Engine"], total: 1 });
    expect(await q("search=zür")).toEqual({ names: ["Zürich"], total: 1 });
    expect(await q("search=ZÜR")).toEqual({ names: ["Zürich"], total: 1 });
    expect(await q("type=person")).toEqual({ names: ["Charles Babbage", "Ada Lovelace"], total: 2 });
    expect(await q("type=product&search=ada")).toEqual({ names: ["Ada (language)"], total: 1 });
    expect(await q("type=event")).toEqual({ names: [], total: 0 });
    expect(await q("search=nothing-like-this")).toEqual({ names: [], total: 0 });
    expect(await q("search=a&limit=2&offset=1")).toEqual({ names: ["Royal Society", "Analytical Engine"], total: 5 });
  });

  test("invalid query parameters → 400", async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ["limit=0", "limit must be >= 1", { field: "limit", constraint: "minimum", min: 1 }],
      ["limit=101", "limit must be <= 100", { field: "limit", constraint: "maximum", max: 100 }],
      ["limit=2.5", "limit must be an integer", { field: "limit", constraint: "type" }],
      ["offset=-3", "offset must be >= 0", { field: "offset", constraint: "minimum", min: 0 }],
      ["type=animal", `type must be one of ${TYPES.join(", ")}`, { field: "type", constraint: "enum", allowed: TYPES }],
      ["search=", "search must not be empty", { field: "search", constraint: "required" }],
      ["sort=name", "sort is not an accepted field", { field: "sort", constraint: "unknown_field" }],
    ];
    for (const [qs, message, details] of cases)
      expectError(await api.get(`/v1/entities?${qs}`), 400, "VALIDATION_ERROR", message, details);
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
