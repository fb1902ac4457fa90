import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { tenant } from "../memories/memory-helpers";
import { createTag } from "./tag-helpers";

/** PATCH /v1/tags/:id: partial updates, renames and the same validation as create. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
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
    const { api: own } = await tenant();
    const t = await createTag(own, { name: "Self" });
    expect((await own.patch(`/v1/tags/${t.id}`, { name: "Self" })).status).toBe(200);
    expect((await own.patch(`/v1/tags/${t.id}`, { name: "SELF" })).body.data.name).toBe("SELF");
    await own.patch(`/v1/tags/${t.id}`, { name: "Other" });
    expect((await own.post("/v1/tags", { name: "self" })).status).toBe(200);
  });

  test("renaming onto another tag's name is 400 unique", async () => {
    const { api: own } = await tenant();
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
