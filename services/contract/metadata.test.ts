import { describe, expect, test } from "bun:test";
import { checkMetadata, jsonDepth, METADATA_MAX_BYTES } from "./metadata";
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
    expect(errorOf(() => checkMetadata({ k: "€".repeat(5462) }))).toEqual({ field: "metadata", constraint: "max_bytes", max: METADATA_MAX_BYTES });
  });
  test("names the field and the constraint", () => {
    expect(errorOf(() => checkMetadata({ a: { b: { c: { d: { e: { f: 1 } } } } } }, "meta"))).toEqual({ field: "meta", constraint: "max_depth", max: 5 });
  });
});
