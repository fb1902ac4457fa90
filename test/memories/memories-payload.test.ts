import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { createMemory, ok, tenant } from "./memory-helpers";

/** POST /v1/memories: what a body may hold (sizes, depth, types, encoding) and what it may not. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("POST /v1/memories", () => {
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
