import { describe, expect, test } from "bun:test";
import { checkMetadata, jsonDepth, METADATA_MAX_BYTES, reservedKeyAt } from "./metadata";
import { buildContext, searchMemories } from "./search";
import { ServiceError } from "./errors";

const errorOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return (err as ServiceError).details;
  }
  return undefined;
};

describe("jsonDepth", () => {
  test("the top object is level 1; nested objects and arrays add one each; scalars add none", () => {
    expect(jsonDepth({}, 5)).toBe(1);
    expect(jsonDepth({ a: 1, b: "x", c: null }, 5)).toBe(1);
    expect(jsonDepth({ a: { b: 1 } }, 5)).toBe(2);
    expect(jsonDepth({ a: [1, [2]] }, 5)).toBe(3);
    expect(jsonDepth({ a: 1, b: { c: { d: {} } } }, 5)).toBe(4);
  });
  test("stops early past the limit (still reports more than it)", () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 1_000_000; i++) deep = { x: deep };
    expect(jsonDepth(deep, 5)).toBe(6);
    expect(jsonDepth({ a: 1, b: { c: [[[]]] } }, 2)).toBe(3);
  });
});

describe("checkMetadata", () => {
  test("accepts up to the limits, absent and null", () => {
    expect(errorOf(() => checkMetadata({ k: "x".repeat(METADATA_MAX_BYTES - 8) }))).toBeUndefined();
    expect(errorOf(() => checkMetadata({ a: { b: { c: { d: { e: 1 } } } } }))).toBeUndefined();
    expect(errorOf(() => checkMetadata(undefined))).toBeUndefined();
  });
  test("counts UTF-8 bytes, not characters", () => {
    expect(errorOf(() => checkMetadata({ k: "€".repeat(5462) }))).toEqual({
      field: "metadata",
      constraint: "max_bytes",
      max: METADATA_MAX_BYTES,
    });
  });
  test("names the field and the constraint", () => {
    expect(errorOf(() => checkMetadata({ a: { b: { c: { d: { e: { f: 1 } } } } } }, "meta"))).toEqual({
      field: "meta",
      constraint: "max_depth",
      max: 5,
    });
  });
});

describe("reserved key names", () => {
  // JSON.parse makes `__proto__` an own key, as a client's body does.
  const refusal = (json: string) => errorOf(() => checkMetadata(JSON.parse(json)));
  test("__proto__, constructor and prototype are refused at any level, naming the path", () => {
    expect(refusal('{"__proto__":{"x":1}}')).toEqual({ field: "metadata.__proto__", constraint: "reserved_key" });
    expect(refusal('{"a":{"constructor":1}}')).toEqual({ field: "metadata.a.constructor", constraint: "reserved_key" });
    const inArray = refusal('{"a":[0,{"prototype":[]}]}');
    expect(inArray).toEqual({ field: "metadata.a.1.prototype", constraint: "reserved_key" });
    // GraphQL's JSON scalar builds objects without a prototype: the same rule.
    const bare = Object.assign(Object.create(null), { ["__proto__"]: 1 });
    expect(reservedKeyAt({ a: bare }, "metadata")).toBe("metadata.a.__proto__");
  });
  test("the same words as values, or inside longer keys, are fine", () => {
    expect(refusal('{"kind":"constructor","__proto":1,"prototypes":["__proto__"]}')).toBeUndefined();
  });
});

describe("search filters carry metadata's limits", () => {
  const deep = (levels: number): unknown => (levels === 1 ? { x: 1 } : { x: deep(levels - 1) });
  test.each([
    ["search", searchMemories],
    ["context", buildContext],
  ])("%s: a metadata filter too deep or with a reserved key is a 400 before any service reads it", (_name, op) => {
    const refusal = (metadata: unknown) => errorOf(() => op.validate({ query: "x", metadata }));
    expect(refusal(deep(6))).toEqual({ field: "metadata", constraint: "max_depth", max: 5 });
    const reserved = refusal(JSON.parse('{"a":{"__proto__":1}}'));
    expect(reserved).toEqual({ field: "metadata.a.__proto__", constraint: "reserved_key" });
    expect(refusal(deep(5))).toBeUndefined();
  });
});
