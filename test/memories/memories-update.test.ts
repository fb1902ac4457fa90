import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { createMemory, expectNotFound, MEMORY_ENUMS, ok, tenant, UNKNOWN_ID } from "./memory-helpers";

/** PATCH /v1/memories/:id: partial updates, moving external ids, and the same validation as create. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("PATCH /v1/memories/:id", () => {
  test("changes only the sent fields, replaces metadata whole and refreshes updated_at", async () => {
    const m = await createMemory(api, {
      content: "before",
      tier: "long",
      metadata: { a: 1, b: { c: 2 } },
      external_id: "patch-1",
    });
    await Bun.sleep(5);
    const patched = await ok(api.patch(`/v1/memories/${m.id}`, { content: "after", metadata: { z: true } }));
    expect(patched).toEqual({ ...m, content: "after", metadata: { z: true }, updated_at: patched.updated_at });
    expect(Date.parse(patched.updated_at)).toBeGreaterThan(Date.parse(m.updated_at));
    expect(patched.created_at).toBe(m.created_at);
    expect(await ok(api.get(`/v1/memories/${m.id}`))).toEqual(patched);

    const enums = await ok(
      api.patch(`/v1/memories/${m.id}`, { content_type: "fact", tier: "short", memory_nature: "semantic" }),
    );
    expect(enums).toMatchObject({
      content: "after",
      content_type: "fact",
      tier: "short",
      memory_nature: "semantic",
      metadata: { z: true },
      external_id: "patch-1",
    });
  });

  test("an empty patch changes nothing", async () => {
    const m = await createMemory(api);
    expect(await ok(api.patch(`/v1/memories/${m.id}`, {}))).toEqual(m);
  });

  test("external_id can move, be cleared (freeing it) and must stay unique", async () => {
    const a = await createMemory(api, { external_id: "move-a" });
    const b = await createMemory(api, { external_id: "move-b" });
    expectError(
      await api.patch(`/v1/memories/${b.id}`, { external_id: "move-a" }),
      400,
      "VALIDATION_ERROR",
      "A memory with this external_id already exists",
      {
        field: "external_id",
        constraint: "unique",
      },
    );
    // Its own: fine.
    expect((await ok(api.patch(`/v1/memories/${a.id}`, { external_id: "move-a" }))).external_id).toBe("move-a");
    expect((await ok(api.patch(`/v1/memories/${a.id}`, { external_id: null }))).external_id).toBeNull();
    expect((await ok(api.patch(`/v1/memories/${b.id}`, { external_id: "move-a" }))).external_id).toBe("move-a");
    // move-b is free again, move-a now names b.
    expect((await createMemory(api, { external_id: "move-b" })).external_id).toBe("move-b");
    expect((await ok(api.get("/v1/memories?external_id=move-a"))).map((x: { id: string }) => x.id)).toEqual([b.id]);
  });

  test("same validation as create", async () => {
    const m = await createMemory(api);
    const path = `/v1/memories/${m.id}`;
    expectError(await api.patch(path, { content: "" }), 400, "VALIDATION_ERROR", "content must not be empty", {
      field: "content",
      constraint: "required",
    });
    expectError(await api.patch(path, { content: null }), 400, "VALIDATION_ERROR", "content must be string", {
      field: "content",
      constraint: "type",
    });
    expectError(
      await api.patch(path, { content: "a".repeat(100_001) }),
      400,
      "VALIDATION_ERROR",
      "content must be at most 100000 characters",
      { field: "content", constraint: "max_length", max: 100000 },
    );
    for (const [field, allowed] of Object.entries(MEMORY_ENUMS)) {
      expectError(
        await api.patch(path, { [field]: "bogus" }),
        400,
        "VALIDATION_ERROR",
        `${field} must be one of ${allowed.join(", ")}`,
        { field, constraint: "enum", allowed },
      );
    }
    expectError(
      await api.patch(path, { parent_memory_id: "nope" }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id has an invalid format (expected uuid)",
      { field: "parent_memory_id", constraint: "format" },
    );
    expectError(
      await api.patch(path, { parent_memory_id: UNKNOWN_ID }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id must name an existing memory",
      { field: "parent_memory_id", constraint: "exists" },
    );
    expectError(
      await api.patch(path, { external_id: "x".repeat(256) }),
      400,
      "VALIDATION_ERROR",
      "external_id must be at most 255 characters",
      { field: "external_id", constraint: "max_length", max: 255 },
    );
    expectError(
      await api.patch(path, { metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } } }),
      400,
      "VALIDATION_ERROR",
      "metadata must be at most 5 levels deep",
      { field: "metadata", constraint: "max_depth", max: 5 },
    );
    expectError(
      await api.patch(path, { metadata: { k: "x".repeat(16_377) } }),
      400,
      "VALIDATION_ERROR",
      "metadata must be at most 16384 bytes serialized",
      { field: "metadata", constraint: "max_bytes", max: 16384 },
    );
    expectError(await api.patch(path, { metadata: null }), 400, "VALIDATION_ERROR", "metadata must be object", {
      field: "metadata",
      constraint: "type",
    });
    for (const field of ["created_at", "updated_at", "tenant", "tags"]) {
      expectError(
        await api.patch(path, { [field]: "x" }),
        400,
        "VALIDATION_ERROR",
        `${field} is not an accepted field`,
        { field, constraint: "unknown_field" },
      );
    }
    // Nothing of the refused patches was stored.
    expect(await ok(api.get(path))).toEqual(m);
  });

  test("unknown or malformed id → 404", async () => {
    expectNotFound(await api.patch(`/v1/memories/${UNKNOWN_ID}`, { content: "x" }));
    expectNotFound(await api.patch("/v1/memories/not-a-uuid", { content: "x" }));
  });
});
