import { describe, expect, test } from "bun:test";
import { Type as T } from "@sinclair/typebox";
import { coerceQuery, compileValidator, isUuid } from "./validation";
import { Enum, Nullable, Uuid } from "./common";
import { ServiceError } from "./errors";

const schema = T.Object(
  {
    content: T.String({ minLength: 1, maxLength: 5 }),
    tier: T.Optional(Enum(["short", "medium", "long"] as const)),
    parent: T.Optional(Uuid()),
    color: T.Optional(Nullable(T.String({ pattern: "^#[0-9A-Fa-f]{6}$" }))),
    limit: T.Optional(T.Integer({ minimum: 1, maximum: 100, default: 50 })),
    ids: T.Optional(T.Array(T.String(), { maxItems: 2 })),
  },
  { additionalProperties: false },
);
const validate = compileValidator(schema);

const failure = (value: unknown) => {
  try {
    validate(value);
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return { message: (err as ServiceError).message, ...(err as ServiceError).details };
  }
  throw new Error("expected a validation error");
};

describe("validation errors speak the spec's vocabulary", () => {
  test("required", () =>
    expect(failure({})).toMatchObject({ field: "content", constraint: "required", message: "content is required" }));
  test("empty string counts as missing", () =>
    expect(failure({ content: "" })).toMatchObject({ field: "content", constraint: "required" }));
  test("max_length", () =>
    expect(failure({ content: "123456" })).toMatchObject({ field: "content", constraint: "max_length", max: 5 }));
  test("enum", () =>
    expect(failure({ content: "a", tier: "huge" })).toMatchObject({
      field: "tier",
      constraint: "enum",
      allowed: ["short", "medium", "long"],
    }));
  test("format (uuid)", () =>
    expect(failure({ content: "a", parent: "nope" })).toMatchObject({ field: "parent", constraint: "format" }));
  test("nullable with a bad value reports the inner constraint", () =>
    expect(failure({ content: "a", color: "red" })).toMatchObject({ field: "color", constraint: "format" }));
  test("maximum", () =>
    expect(failure({ content: "a", limit: 101 })).toMatchObject({ field: "limit", constraint: "maximum" }));
  test("integer type", () =>
    expect(failure({ content: "a", limit: 2.5 })).toMatchObject({ field: "limit", constraint: "type" }));
  test("max_items", () =>
    expect(failure({ content: "a", ids: ["1", "2", "3"] })).toMatchObject({ field: "ids", constraint: "max_items" }));
  test("unknown fields are refused", () =>
    expect(failure({ content: "a", id: "x" })).toMatchObject({ field: "id", constraint: "unknown_field" }));
  test("top-level defaults fill only what is missing; nested defaults go through TypeBox", () => {
    const sent = { content: "a", limit: 7 };
    expect(validate({ content: "a" })).toEqual({ content: "a", limit: 50 });
    expect(validate(sent)).toEqual({ content: "a", limit: 7 });
    const nested = compileValidator(
      T.Object({ page: T.Optional(T.Object({ size: T.Optional(T.Integer({ default: 20 })) })) }),
    );
    expect(nested({ page: {} })).toEqual({ page: { size: 20 } });
    const arr = compileValidator(T.Object({ xs: T.Optional(T.Array(T.Integer(), { default: [] })) }));
    expect(arr({})).toEqual({ xs: [] });
  });

  test("defaults are applied and null color accepted", () => {
    expect(validate({ content: "a", color: null })).toEqual({ content: "a", color: null, limit: 50 });
  });
});

describe("query coercion", () => {
  test("numbers and repeated keys", () => {
    expect(coerceQuery(schema, { limit: "10", ids: "x" })).toEqual({ limit: 10, ids: ["x"] });
  });
  test("a non-numeric limit stays a string and fails validation", () => {
    expect(failure(coerceQuery(schema, { content: "a", limit: "abc" }))).toMatchObject({ field: "limit" });
  });
  test("prototype-named parameters stay keys, refused as unknown fields like any other", () => {
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const query = Object.assign(Object.create(null), { content: "a", [name]: "1", limit: "5" });
      const coerced = coerceQuery(schema, query) as Record<string, unknown>;
      expect(Object.getPrototypeOf(coerced)).toBe(Object.prototype);
      expect(Object.hasOwn(coerced, name)).toBe(true);
      expect(failure(coerced)).toMatchObject({ field: name, constraint: "unknown_field" });
    }
  });
});

test("isUuid", () => {
  expect(isUuid(crypto.randomUUID())).toBe(true);
  expect(isUuid("123")).toBe(false);
  expect(isUuid(undefined)).toBe(false);
});
