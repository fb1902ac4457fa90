import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import { expectError } from "../envelope-helpers";

/** Spec 4.2, tag resources, black-box through the gateway. Links: tag-links.test.ts. */
let base: string;
let admin: string;
let api: ApiClient;

beforeAll(async () => {
  const stack = await testStack();
  base = stack.baseUrl;
  admin = stack.adminKey;
  api = (await newTenant(base, admin)).api;
});

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const createTag = async (client: ApiClient, body: Record<string, unknown>) => {
  const res = await client.post("/v1/tags", body);
  expect(res.status).toBe(200);
  return res.body.data;
};

describe("POST /v1/tags", () => {
  test("creates a tag with every field; memory_count 0 and updated_at = created_at", async () => {
    const res = await api.post("/v1/tags", { name: "Project X", color: "#1a2B3c", description: "All of project X" });
    expect(res.status).toBe(200);
    const t = res.body.data;
    expect(t).toEqual({
      id: t.id,
      name: "Project X",
      color: "#1a2B3c",
      description: "All of project X",
      memory_count: 0,
      created_at: t.created_at,
      updated_at: t.created_at,
    });
    expect(t.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(t.created_at).toMatch(ISO_MS);
    expect(typeof res.body.meta.latency_ms).toBe("number");
  });

  test("only the name is required; color and description default to null (or accept null)", async () => {
    expect(await createTag(api, { name: "minimal" })).toMatchObject({ color: null, description: null });
    expect(await createTag(api, { name: "nulls", color: null, description: null })).toMatchObject({
      color: null,
      description: null,
    });
  });

  test("name is 1 to 50 characters; Unicode round-trips", async () => {
    expect((await createTag(api, { name: "x".repeat(50) })).name).toBe("x".repeat(50));
    expect((await createTag(api, { name: "é" })).name).toBe("é");
    expect((await createTag(api, { name: "日本語 🏷️" })).name).toBe("日本語 🏷️");
    expectError(
      await api.post("/v1/tags", { name: "y".repeat(51) }),
      400,
      "VALIDATION_ERROR",
      "name must be at most 50 characters",
      { field: "name", constraint: "max_length", max: 50 },
    );
    expectError(await api.post("/v1/tags", { name: "" }), 400, "VALIDATION_ERROR", "name must not be empty", {
      field: "name",
      constraint: "required",
    });
    expectError(await api.post("/v1/tags", { color: "#000000" }), 400, "VALIDATION_ERROR", "name is required", {
      field: "name",
      constraint: "required",
    });
    expectError(await api.post("/v1/tags", { name: 42 }), 400, "VALIDATION_ERROR", "name must be string", {
      field: "name",
      constraint: "type",
    });
  });

  test("color must be #RRGGBB", async () => {
    for (const color of ["red", "#12345", "#1234567", "123456", "#GGGGGG"]) {
      expectError(
        await api.post("/v1/tags", { name: `c ${color}`, color }),
        400,
        "VALIDATION_ERROR",
        "color has an invalid format",
        { field: "color", constraint: "format" },
      );
    }
  });

  test("description is at most 200 characters", async () => {
    expect((await createTag(api, { name: "d200", description: "d".repeat(200) })).description).toBe("d".repeat(200));
    expectError(
      await api.post("/v1/tags", { name: "d201", description: "d".repeat(201) }),
      400,
      "VALIDATION_ERROR",
      "description must be at most 200 characters",
      {
        field: "description",
        constraint: "max_length",
        max: 200,
      },
    );
  });

  test("fields the client may not set are rejected", async () => {
    for (const field of ["id", "memory_count", "created_at"]) {
      expectError(
        await api.post("/v1/tags", { name: `f ${field}`, [field]: "x" }),
        400,
        "VALIDATION_ERROR",
        `${field} is not an accepted field`,
        { field, constraint: "unknown_field" },
      );
    }
  });

  test("a duplicate name, in any case, is 400 with the spec's message", async () => {
    const { api: own } = await newTenant(base, admin);
    const urgent = await createTag(own, { name: "Urgent" });
    for (const name of ["Urgent", "urgent", "URGENT"]) {
      expectError(
        await own.post("/v1/tags", { name }),
        400,
        "VALIDATION_ERROR",
        "A tag with this name already exists",
        { field: "name", constraint: "unique", existing_id: urgent.id },
      );
    }
  });

  test("ten concurrent creates of one name give exactly one tag", async () => {
    const { api: own } = await newTenant(base, admin);
    const results = await Promise.all(Array.from({ length: 10 }, () => own.post("/v1/tags", { name: "once" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error.details.constraint === "unique")).toHaveLength(9);
    expect((await own.get("/v1/tags")).body.meta.total).toBe(1);
  });
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

describe("PATCH /v1/tags/:id", () => {
  test("changes only the fields sent and refreshes updated_at", async () => {
    const t = await createTag(api, { name: "patchme", color: "#111111", description: "before" });
    const r1 = await api.patch(`/v1/tags/${t.id}`, { color: "#222222" });
    expect(r1.status).toBe(200);
    expect(r1.body.data).toEqual({ ...t, color: "#222222", updated_at: r1.body.data.updated_at });
    expect(Date.parse(r1.body.data.updated_at)).toBeGreaterThan(Date.parse(t.updated_at));
    const r2 = await api.patch(`/v1/tags/${t.id}`, { name: "patched" });
    expect(r2.body.data).toMatchObject({
      name: "patched",
      color: "#222222",
      description: "before",
      created_at: t.created_at,
    });
    expect(Date.parse(r2.body.data.updated_at)).toBeGreaterThan(Date.parse(r1.body.data.updated_at));
    expect((await api.get(`/v1/tags/${t.id}`)).body.data).toEqual(r2.body.data);
  });

  test("description: null removes it; color: null removes it", async () => {
    const t = await createTag(api, { name: "nullable", color: "#111111", description: "text" });
    expect((await api.patch(`/v1/tags/${t.id}`, { description: null })).body.data).toMatchObject({
      description: null,
      color: "#111111",
    });
    expect((await api.patch(`/v1/tags/${t.id}`, { color: null })).body.data).toMatchObject({
      description: null,
      color: null,
    });
  });

  test("renaming to its own name (any case) is fine; a rename frees the old name", async () => {
    const { api: own } = await newTenant(base, admin);
    const t = await createTag(own, { name: "Self" });
    expect((await own.patch(`/v1/tags/${t.id}`, { name: "Self" })).status).toBe(200);
    expect((await own.patch(`/v1/tags/${t.id}`, { name: "SELF" })).body.data.name).toBe("SELF");
    await own.patch(`/v1/tags/${t.id}`, { name: "Other" });
    expect((await own.post("/v1/tags", { name: "self" })).status).toBe(200);
  });

  test("renaming onto another tag's name is 400 unique", async () => {
    const { api: own } = await newTenant(base, admin);
    const taken = await createTag(own, { name: "taken" });
    const t = await createTag(own, { name: "free" });
    expectError(
      await own.patch(`/v1/tags/${t.id}`, { name: "TAKEN" }),
      400,
      "VALIDATION_ERROR",
      "A tag with this name already exists",
      { field: "name", constraint: "unique", existing_id: taken.id },
    );
    expect((await own.get(`/v1/tags/${t.id}`)).body.data.name).toBe("free");
  });

  test("the same validation as create", async () => {
    const t = await createTag(api, { name: "validated" });
    expectError(await api.patch(`/v1/tags/${t.id}`, { name: "" }), 400, "VALIDATION_ERROR", "name must not be empty", {
      field: "name",
      constraint: "required",
    });
    expectError(
      await api.patch(`/v1/tags/${t.id}`, { name: "n".repeat(51) }),
      400,
      "VALIDATION_ERROR",
      "name must be at most 50 characters",
      { field: "name", constraint: "max_length", max: 50 },
    );
    expectError(
      await api.patch(`/v1/tags/${t.id}`, { color: "blue" }),
      400,
      "VALIDATION_ERROR",
      "color has an invalid format",
      { field: "color", constraint: "format" },
    );
    expectError(
      await api.patch(`/v1/tags/${t.id}`, { description: "d".repeat(201) }),
      400,
      "VALIDATION_ERROR",
      "description must be at most 200 characters",
      {
        field: "description",
        constraint: "max_length",
        max: 200,
      },
    );
    expectError(
      await api.patch(`/v1/tags/${t.id}`, { memory_count: 5 }),
      400,
      "VALIDATION_ERROR",
      "memory_count is not an accepted field",
      { field: "memory_count", constraint: "unknown_field" },
    );
  });

  test("unknown or malformed id is 404", async () => {
    expectError(await api.patch(`/v1/tags/${crypto.randomUUID()}`, { name: "x" }), 404, "NOT_FOUND", "Tag not found");
    expectError(await api.patch("/v1/tags/123", { name: "x" }), 404, "NOT_FOUND", "Tag not found");
  });
});

describe("DELETE /v1/tags/:id", () => {
  test("deletes permanently: data.deleted true, then 404; the name is free again", async () => {
    const { api: own } = await newTenant(base, admin);
    const t = await createTag(own, { name: "doomed" });
    const res = await own.delete(`/v1/tags/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: t.id, deleted: true });
    expectError(await own.get(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await own.delete(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await own.delete("/v1/tags/zzz"), 404, "NOT_FOUND", "Tag not found");
    expect((await own.get("/v1/tags")).body.meta.total).toBe(0);
    expect((await own.post("/v1/tags", { name: "Doomed" })).status).toBe(200);
  });
});

describe("GET /v1/tags", () => {
  let own: ApiClient;
  const names = ["beta", "Alpha", "gamma", "alphabet", "Delta", "epsilon"];
  beforeAll(async () => {
    own = (await newTenant(base, admin)).api;
    for (const name of names) {
      await createTag(own, { name });
      await Bun.sleep(2); // distinct created_at
    }
  });
  const listNames = async (q: string) => {
    const res = await own.get(`/v1/tags${q}`);
    expect(res.status).toBe(200);
    return res.body.data.map((t: { name: string }) => t.name);
  };

  test("defaults: sorted by name ascending, case-insensitively; limit 50, offset 0, exact total", async () => {
    const res = await own.get("/v1/tags");
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual([
      "Alpha",
      "alphabet",
      "beta",
      "Delta",
      "epsilon",
      "gamma",
    ]);
    expect(res.body.meta).toMatchObject({ total: 6, limit: 50, offset: 0, has_more: false });
    expect(Object.keys(res.body.data[0]).sort()).toEqual([
      "color",
      "created_at",
      "description",
      "id",
      "memory_count",
      "name",
      "updated_at",
    ]);
  });

  test("sort and order", async () => {
    expect(await listNames("?order=desc")).toEqual(["gamma", "epsilon", "Delta", "beta", "alphabet", "Alpha"]);
    expect(await listNames("?sort=created_at")).toEqual(names);
    expect(await listNames("?sort=created_at&order=desc")).toEqual([...names].reverse());
    expect(await listNames("?sort=name&order=asc")).toEqual(["Alpha", "alphabet", "beta", "Delta", "epsilon", "gamma"]);
  });

  test("search is a case-insensitive partial match on the name, with an exact total", async () => {
    const res = await own.get("/v1/tags?search=ALPH");
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(["Alpha", "alphabet"]);
    expect(res.body.meta.total).toBe(2);
    expect(await listNames("?search=ta")).toEqual(["beta", "Delta"]);
    expect(await listNames("?search=nothing")).toEqual([]);
  });

  test("pagination: limit, offset, has_more", async () => {
    const p1 = await own.get("/v1/tags?limit=4");
    expect(p1.body.data).toHaveLength(4);
    expect(p1.body.meta).toMatchObject({ total: 6, limit: 4, offset: 0, has_more: true });
    const p2 = await own.get("/v1/tags?limit=4&offset=4");
    expect(p2.body.data.map((t: { name: string }) => t.name)).toEqual(["epsilon", "gamma"]);
    expect(p2.body.meta).toMatchObject({ total: 6, limit: 4, offset: 4, has_more: false });
    const p3 = await own.get("/v1/tags?offset=10");
    expect(p3.body.data).toEqual([]);
    expect(p3.body.meta).toMatchObject({ total: 6, has_more: false });
    expect((await own.get("/v1/tags?limit=100")).body.meta.limit).toBe(100);
  });

  test("invalid query values are 400", async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ["limit=0", "limit must be >= 1", { field: "limit", constraint: "minimum", min: 1 }],
      ["limit=101", "limit must be <= 100", { field: "limit", constraint: "maximum", max: 100 }],
      ["limit=abc", "limit must be an integer", { field: "limit", constraint: "type" }],
      ["limit=2.5", "limit must be an integer", { field: "limit", constraint: "type" }],
      ["offset=-1", "offset must be >= 0", { field: "offset", constraint: "minimum", min: 0 }],
      [
        "sort=popularity",
        "sort must be one of name, memory_count, created_at",
        { field: "sort", constraint: "enum", allowed: ["name", "memory_count", "created_at"] },
      ],
      ["order=up", "order must be one of asc, desc", { field: "order", constraint: "enum", allowed: ["asc", "desc"] }],
      ["colour=red", "colour is not an accepted field", { field: "colour", constraint: "unknown_field" }],
    ];
    for (const [q, message, details] of cases)
      expectError(await own.get(`/v1/tags?${q}`), 400, "VALIDATION_ERROR", message, details);
  });

  test("the limit of 50 by default with more tags than that", async () => {
    const { api: many } = await newTenant(base, admin);
    await Promise.all(
      Array.from({ length: 55 }, (_, i) => many.post("/v1/tags", { name: `t${String(i).padStart(2, "0")}` })),
    );
    const res = await many.get("/v1/tags");
    expect(res.body.data).toHaveLength(50);
    expect(res.body.meta).toMatchObject({ total: 55, limit: 50, offset: 0, has_more: true });
    expect(res.body.data[0].name).toBe("t00");
  });
});

describe("isolation and scopes", () => {
  test("another tenant's tag is 404 for get, patch and delete, and absent from its list", async () => {
    const a = await newTenant(base, admin);
    const b = await newTenant(base, admin);
    const t = await createTag(a.api, { name: "private" });
    expectError(await b.api.get(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await b.api.patch(`/v1/tags/${t.id}`, { name: "stolen" }), 404, "NOT_FOUND", "Tag not found");
    expectError(await b.api.delete(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expect((await b.api.get("/v1/tags")).body.meta.total).toBe(0);
    expect((await b.api.post("/v1/tags", { name: "private" })).status).toBe(200);
    expect((await a.api.get(`/v1/tags/${t.id}`)).body.data).toEqual(t);
  });

  test("test and live keys of one tenant see separate tags", async () => {
    const live = await newTenant(base, admin);
    const sandbox = await newTenant(base, admin, { tenant: live.tenant, environment: "test" });
    const t = await createTag(live.api, { name: "shared name" });
    expectError(await sandbox.api.get(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expect((await sandbox.api.get("/v1/tags")).body.meta.total).toBe(0);
    expect((await sandbox.api.post("/v1/tags", { name: "shared name" })).status).toBe(200);
    expect((await live.api.get("/v1/tags")).body.meta.total).toBe(1);
  });

  test("reads need memories:read, writes memories:write", async () => {
    const reader = await newTenant(base, admin, { scopes: ["memories:read"] });
    const writer = await newTenant(base, admin, { scopes: ["memories:write"], tenant: reader.tenant });
    expectError(
      await reader.api.post("/v1/tags", { name: "x" }),
      403,
      "FORBIDDEN",
      "Missing required scope: memories:write",
    );
    expect((await writer.api.post("/v1/tags", { name: "x" })).status).toBe(200);
    expectError(await writer.api.get("/v1/tags"), 403, "FORBIDDEN", "Missing required scope: memories:read");
    expect((await reader.api.get("/v1/tags")).body.meta.total).toBe(1);
    const unauth = apiClient(base);
    expect((await unauth.get("/v1/tags")).status).toBe(401);
  });
});
