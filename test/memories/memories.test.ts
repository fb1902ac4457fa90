import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { createMemory, expectNotFound, ISO_MS, ok, tenant, UNKNOWN_ID, UUID } from "./memory-helpers";
import { expectError } from "../envelope-helpers";

/** Memories: create, get, patch, delete and their validation, black-box through the gateway. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

const ENUM_ERRORS = {
  content_type: ["text", "conversation", "document", "event", "fact"],
  tier: ["short", "medium", "long"],
  memory_nature: ["episodic", "semantic"],
};

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
    for (const [field, allowed] of Object.entries(ENUM_ERRORS)) {
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

  test("content up to 100,000 characters", async () => {
    const max = "a".repeat(100_000);
    const m = await createMemory(api, { content: max });
    expect((await ok(api.get(`/v1/memories/${m.id}`))).content).toBe(max);
    expectError(
      await api.post("/v1/memories", { content: "a".repeat(100_001) }),
      400,
      "VALIDATION_ERROR",
      "content must be at most 100000 characters",
      {
        field: "content",
        constraint: "max_length",
        max: 100000,
      },
    );
  });

  test("metadata: an object of at most 16 KiB serialized (UTF-8 bytes)", async () => {
    // {"k":"…"} is 8 bytes plus the string.
    const exact = { k: "x".repeat(16_384 - 8) };
    expect(JSON.stringify(exact).length).toBe(16_384);
    expect((await createMemory(api, { metadata: exact })).metadata).toEqual(exact);
    const tooBig = { k: "x".repeat(16_384 - 7) };
    expectError(
      await api.post("/v1/memories", { content: "x", metadata: tooBig }),
      400,
      "VALIDATION_ERROR",
      "metadata must be at most 16384 bytes serialized",
      {
        field: "metadata",
        constraint: "max_bytes",
        max: 16384,
      },
    );
    // 8,189 two-byte characters: fewer than 16,384 characters but 16,386 bytes.
    expectError(
      await api.post("/v1/memories", { content: "x", metadata: { k: "é".repeat(8_189) } }),
      400,
      "VALIDATION_ERROR",
      "metadata must be at most 16384 bytes serialized",
      {
        field: "metadata",
        constraint: "max_bytes",
        max: 16384,
      },
    );
  });

  test("metadata: at most 5 levels deep (the object itself is level 1; arrays count)", async () => {
    const five = { a: { b: { c: { d: { e: 1 } } } } };
    expect((await createMemory(api, { metadata: five })).metadata).toEqual(five);
    expect((await createMemory(api, { metadata: { a: [[[[1]]]] } })).metadata).toEqual({ a: [[[[1]]]] });
    for (const six of [{ a: { b: { c: { d: { e: { f: 1 } } } } } }, { a: [[[[[1]]]]] }, { a: [{ b: [{ c: {} }] }] }]) {
      expectError(
        await api.post("/v1/memories", { content: "x", metadata: six }),
        400,
        "VALIDATION_ERROR",
        "metadata must be at most 5 levels deep",
        {
          field: "metadata",
          constraint: "max_depth",
          max: 5,
        },
      );
    }
  });

  test("absurdly deep metadata is refused as too deep, never a 500", async () => {
    const deep = (n: number) => `{"content":"x","metadata":${'{"x":'.repeat(n)}1${"}".repeat(n)}}`;
    // Past 32 levels the body itself is refused, before it is parsed; below, metadata's own limit.
    const body = await api.raw("POST", "/v1/memories", deep(50_000));
    expectError(body, 400, "VALIDATION_ERROR", "body must be nested at most 32 levels deep", {
      field: "body",
      constraint: "max_depth",
      max: 32,
    });
    const metadata = await api.raw("POST", "/v1/memories", deep(20));
    expectError(metadata, 400, "VALIDATION_ERROR", "metadata must be at most 5 levels deep", {
      field: "metadata",
      constraint: "max_depth",
      max: 5,
    });
  });

  test("metadata must be an object", async () => {
    for (const metadata of [[1, 2], "text", 3, null]) {
      expectError(
        await api.post("/v1/memories", { content: "x", metadata }),
        400,
        "VALIDATION_ERROR",
        "metadata must be object",
        { field: "metadata", constraint: "type" },
      );
    }
  });

  test("fields the client may not set are rejected and never stored", async () => {
    for (const field of ["id", "created_at", "updated_at", "tenant", "tenant_id", "tags", "entity_ids", "version"]) {
      expectError(
        await api.post("/v1/memories", { content: "x", [field]: "2020-01-01T00:00:00.000Z" }),
        400,
        "VALIDATION_ERROR",
        `${field} is not an accepted field`,
        {
          field,
          constraint: "unknown_field",
        },
      );
    }
  });

  test("a body that is not a JSON object is a 400", async () => {
    expectError(
      await api.raw("POST", "/v1/memories", "{not json"),
      400,
      "VALIDATION_ERROR",
      "Request body is not valid JSON",
      { field: "body", constraint: "json" },
    );
    expectError(
      await api.raw("POST", "/v1/memories", "[1]"),
      400,
      "VALIDATION_ERROR",
      "Request body must be a JSON object",
      { field: "body", constraint: "type" },
    );
  });

  test("text that is not Unicode is refused, not stored altered (invalid UTF-8, lone surrogate escapes)", async () => {
    const before = (await api.get("/v1/memories?limit=1")).body.meta.total;
    const enc = new TextEncoder();
    const notUtf8 = new Uint8Array([...enc.encode('{"content":"caf'), 0xe9, ...enc.encode('"}')]); // Latin-1 é
    expectError(
      await api.raw("POST", "/v1/memories", notUtf8),
      400,
      "VALIDATION_ERROR",
      "Request body is not valid UTF-8",
      { field: "body", constraint: "utf8" },
    );
    expectError(
      await api.raw("POST", "/v1/memories", '{"content":"half an emoji \\ud83e"}'),
      400,
      "VALIDATION_ERROR",
      "content contains an unpaired UTF-16 surrogate, which is not Unicode text",
      {
        field: "content",
        constraint: "unicode",
      },
    );
    const nested = await api.raw("POST", "/v1/memories", '{"content":"x","metadata":{"notes":["ok","\\udc00"]}}');
    expectError(
      nested,
      400,
      "VALIDATION_ERROR",
      "metadata.notes.1 contains an unpaired UTF-16 surrogate, which is not Unicode text",
      { field: "metadata.notes.1", constraint: "unicode" },
    );
    expect((await api.get("/v1/memories?limit=1")).body.meta.total).toBe(before);
  });

  test("Unicode round-trips exactly in content, metadata and external_id", async () => {
    const content =
      "héllo wörld — 日本語のテキスト 🧠🌍 👩‍👩‍👧 e\u0301 (combining) " +
      "שלום مرحبا \u200b zero-width 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u0000 nul";
    const metadata = { ключ: "значение", emoji: "🎉", nested: { 中文: ["ü", "ß", "ﬁ"] } };
    const m = await createMemory(api, { content, metadata, external_id: "ext-🧠-ñ" });
    const got = await ok(api.get(`/v1/memories/${m.id}`));
    expect(got.content).toBe(content);
    expect(got.metadata).toEqual(metadata);
    expect(got.external_id).toBe("ext-🧠-ñ");
    const listed = await ok(api.get(`/v1/memories?external_id=${encodeURIComponent("ext-🧠-ñ")}`));
    expect(listed.map((x: { id: string }) => x.id)).toEqual([m.id]);
  });
});

describe("GET /v1/memories/:id", () => {
  test("unknown id → 404; a malformed id → 404 (never 500)", async () => {
    expectNotFound(await api.get(`/v1/memories/${UNKNOWN_ID}`));
    for (const bad of ["not-a-uuid", "123", "%20", "00000000-0000-0000-0000-00000000000g"])
      expectNotFound(await api.get(`/v1/memories/${bad}`));
  });
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
    for (const [field, allowed] of Object.entries(ENUM_ERRORS)) {
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

describe("DELETE /v1/memories/:id", () => {
  test("→ {id, deleted: true}; then GET 404 and a second DELETE 404", async () => {
    const m = await createMemory(api);
    expect(await ok(api.delete(`/v1/memories/${m.id}`))).toEqual({ id: m.id, deleted: true });
    expectNotFound(await api.get(`/v1/memories/${m.id}`));
    expectNotFound(await api.delete(`/v1/memories/${m.id}`));
    expectNotFound(await api.patch(`/v1/memories/${m.id}`, { content: "x" }));
  });

  test("unknown or malformed id → 404; cascade must be a boolean", async () => {
    expectNotFound(await api.delete(`/v1/memories/${UNKNOWN_ID}`));
    expectNotFound(await api.delete("/v1/memories/xyz"));
    const m = await createMemory(api);
    expectError(
      await api.delete(`/v1/memories/${m.id}?cascade=maybe`),
      400,
      "VALIDATION_ERROR",
      "cascade must be boolean",
      { field: "cascade", constraint: "type" },
    );
    expectError(
      await api.delete(`/v1/memories/${m.id}?force=true`),
      400,
      "VALIDATION_ERROR",
      "force is not an accepted field",
      { field: "force", constraint: "unknown_field" },
    );
    expect(await ok(api.delete(`/v1/memories/${m.id}?cascade=false`))).toEqual({ id: m.id, deleted: true });
  });

  test("a deleted memory's external_id is free again", async () => {
    const m = await createMemory(api, { external_id: "reuse-me" });
    await ok(api.delete(`/v1/memories/${m.id}`));
    expect(await ok(api.get("/v1/memories?external_id=reuse-me"))).toEqual([]);
    const again = await createMemory(api, { external_id: "reuse-me" });
    expect(again.id).not.toBe(m.id);
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
