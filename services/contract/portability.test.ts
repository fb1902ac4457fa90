import { describe, expect, test } from "bun:test";
import { createEntity } from "./entities";
import { createMemory } from "./memories";
import { checkLines } from "./portability";
import { memoryRecordFixture } from "./portability.fixture";
import { toServiceError } from "./errors";

const nested = (depth: number): unknown => (depth <= 1 ? { leaf: 1 } : { a: nested(depth - 1) });

/** Metadata `POST /v1/memories` refuses (past what the gateway's body reader refuses before it). */
const refused: [string, unknown][] = [
  ["six levels deep", nested(6)],
  ["over 16 KiB serialized", { big: "x".repeat(17_000) }],
  ["a __proto__ key", JSON.parse('{"__proto__":{"admin":true}}')],
  ["a constructor key, nested", { a: [{ constructor: 1 }] }],
  ["a prototype key", { prototype: null }],
  ["an array", [1, 2]],
  ["a string", "text"],
];

const refusalOf = (validate: (input: unknown) => unknown, input: unknown) => {
  try {
    validate(input);
    return null;
  } catch (err) {
    const e = toServiceError(err);
    return { code: e.code, message: e.message, details: e.details ?? {} };
  }
};

describe("checkLines: a line is held to the API's rules", () => {
  test.each(refused)("a memory's metadata %s: refused as memories.create refuses it", (_name, metadata) => {
    const api = refusalOf(createMemory.validate, { content: "c", metadata });
    expect(api).not.toBeNull();
    const record = { ...memoryRecordFixture(), metadata };
    const { valid, failed } = checkLines([{ line: 7, record }], ["memory"]);
    expect(valid).toEqual([]);
    expect(failed).toEqual([{ line: 7, status: "failed", error: api! }]);
  });

  test.each(refused)("an entity's metadata %s: refused as entities.create refuses it", (_name, metadata) => {
    const api = refusalOf(createEntity.validate, { name: "Ann", type: "person", metadata });
    expect(api).not.toBeNull();
    const record = {
      type: "entity",
      id: crypto.randomUUID(),
      name: "Ann",
      entity_type: "person",
      description: null,
      metadata,
      created_at: "2024-01-01T00:00:00.000Z",
    };
    const { failed } = checkLines([{ line: 1, record }], ["entity", "memory"]);
    expect(failed).toEqual([{ line: 1, status: "failed", error: api! }]);
  });

  test("metadata at the limits goes through, as it does through the API", () => {
    const metadata = { a: { b: { c: { d: 1 } } }, s: "x".repeat(16_000) };
    expect(refusalOf(createMemory.validate, { content: "c", metadata })).toBeNull();
    const { valid, failed } = checkLines([{ line: 1, record: { ...memoryRecordFixture(), metadata } }], ["memory"]);
    expect(failed).toEqual([]);
    expect(valid).toHaveLength(1);
  });
});
