import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { ISO_MS, tenant } from "../memories/memory-helpers";
import { createTag } from "./tag-helpers";

/** POST /v1/tags: the fields, their rules and unique names, black-box through the gateway (spec 4.2). */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

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
    const { api: own } = await tenant();
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
    const { api: own } = await tenant();
    const results = await Promise.all(Array.from({ length: 10 }, () => own.post("/v1/tags", { name: "once" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error.details.constraint === "unique")).toHaveLength(9);
    expect((await own.get("/v1/tags")).body.meta.total).toBe(1);
  });
});
