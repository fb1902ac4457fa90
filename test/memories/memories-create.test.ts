import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { createMemory, ISO_MS, MEMORY_ENUMS, ok, tenant, UNKNOWN_ID, UUID } from "./memory-helpers";

/** POST /v1/memories: the fields, their defaults and their rules, black-box through the gateway. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("POST /v1/memories", () => {
  test("creates a memory with every field and returns all of them", async () => {
    const parent = await createMemory(api, { content: "the parent" });
    const res = await api.post("/v1/memories", {
      content: "Met Ada at the conference",
      content_type: "event",
      tier: "short",
      memory_nature: "semantic",
      parent_memory_id: parent.id,
      external_id: "crm-42",
      metadata: { source: "crm", score: 0.5, nested: { list: [1, "two", null, true] } },
    });
    expect(res.status).toBe(200);
    const m = res.body.data;
    expect(m).toEqual({
      id: m.id,
      content: "Met Ada at the conference",
      content_type: "event",
      tier: "short",
      memory_nature: "semantic",
      parent_memory_id: parent.id,
      external_id: "crm-42",
      metadata: { source: "crm", score: 0.5, nested: { list: [1, "two", null, true] } },
      tags: [],
      entity_ids: [],
      created_at: m.created_at,
      updated_at: m.created_at,
      occurred_at: m.created_at,
      expires_at: null,
      supersedes: null,
      superseded_by: null,
      valid_to: null,
    });
    expect(m.id).toMatch(UUID);
    expect(m.created_at).toMatch(ISO_MS);
    expect(Math.abs(Date.parse(m.created_at) - Date.now())).toBeLessThan(60_000);
    expect(typeof res.body.meta.latency_ms).toBe("number");
    expect(await ok(api.get(`/v1/memories/${m.id}`))).toEqual(m);
  });

  test(
    "defaults: content_type text, tier medium, memory_nature episodic, metadata {}, " + "no parent, no external_id",
    async () => {
      const m = await createMemory(api, { content: "just content" });
      expect(m).toMatchObject({
        content_type: "text",
        tier: "medium",
        memory_nature: "episodic",
        metadata: {},
        parent_memory_id: null,
        external_id: null,
        tags: [],
        entity_ids: [],
      });
    },
  );

  test("explicit nulls for parent_memory_id and external_id mean none", async () => {
    const m = await createMemory(api, { parent_memory_id: null, external_id: null });
    expect(m).toMatchObject({ parent_memory_id: null, external_id: null });
  });

  test("content is required, a non-empty string", async () => {
    expectError(await api.post("/v1/memories", {}), 400, "VALIDATION_ERROR", "content is required", {
      field: "content",
      constraint: "required",
    });
    expectError(await api.post("/v1/memories", { tier: "long" }), 400, "VALIDATION_ERROR", "content is required", {
      field: "content",
      constraint: "required",
    });
    expectError(await api.post("/v1/memories", { content: "" }), 400, "VALIDATION_ERROR", "content must not be empty", {
      field: "content",
      constraint: "required",
    });
    expectError(await api.post("/v1/memories", { content: 42 }), 400, "VALIDATION_ERROR", "content must be string", {
      field: "content",
      constraint: "type",
    });
    expectError(await api.post("/v1/memories", { content: null }), 400, "VALIDATION_ERROR", "content must be string", {
      field: "content",
      constraint: "type",
    });
  });

  test("enums are validated and the error names the field and the allowed values", async () => {
    for (const [field, allowed] of Object.entries(MEMORY_ENUMS)) {
      expectError(
        await api.post("/v1/memories", { content: "x", [field]: "bogus" }),
        400,
        "VALIDATION_ERROR",
        `${field} must be one of ${allowed.join(", ")}`,
        {
          field,
          constraint: "enum",
          allowed,
        },
      );
      for (const value of allowed) expect((await createMemory(api, { [field]: value }))[field as "tier"]).toBe(value);
    }
  });

  test("parent_memory_id must be UUID-formatted and name an existing memory of the tenant", async () => {
    expectError(
      await api.post("/v1/memories", { content: "x", parent_memory_id: "not-a-uuid" }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id has an invalid format (expected uuid)",
      {
        field: "parent_memory_id",
        constraint: "format",
      },
    );
    expectError(
      await api.post("/v1/memories", { content: "x", parent_memory_id: UNKNOWN_ID }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id must name an existing memory",
      {
        field: "parent_memory_id",
        constraint: "exists",
      },
    );
    const deleted = await createMemory(api);
    await ok(api.delete(`/v1/memories/${deleted.id}`));
    expectError(
      await api.post("/v1/memories", { content: "x", parent_memory_id: deleted.id }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id must name an existing memory",
      {
        field: "parent_memory_id",
        constraint: "exists",
      },
    );
  });

  test("external_id: 1 to 255 characters, unique per tenant and environment", async () => {
    const long = "e".repeat(255);
    expect((await createMemory(api, { external_id: long })).external_id).toBe(long);
    expectError(
      await api.post("/v1/memories", { content: "x", external_id: "e".repeat(256) }),
      400,
      "VALIDATION_ERROR",
      "external_id must be at most 255 characters",
      {
        field: "external_id",
        constraint: "max_length",
        max: 255,
      },
    );
    expectError(
      await api.post("/v1/memories", { content: "x", external_id: "" }),
      400,
      "VALIDATION_ERROR",
      "external_id must not be empty",
      { field: "external_id", constraint: "required" },
    );
    await createMemory(api, { external_id: "dup-1" });
    expectError(
      await api.post("/v1/memories", { content: "y", external_id: "dup-1" }),
      400,
      "VALIDATION_ERROR",
      "A memory with this external_id already exists",
      {
        field: "external_id",
        constraint: "unique",
      },
    );
    // Case matters: external ids are the client's own opaque strings.
    expect((await createMemory(api, { external_id: "DUP-1" })).external_id).toBe("DUP-1");
  });
});
