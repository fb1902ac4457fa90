import { describe, expect, test } from "bun:test";
import { checkJsonDepth, checkJsonQueryParams, JSON_MAX_DEPTH, jsonTooDeep } from "./json-depth";
import { ServiceError } from "../../../services/contract/errors";

const nested = (levels: number, open = "[", close = "]") => open.repeat(levels) + close.repeat(levels);
const objects = (levels: number) => '{"a":'.repeat(levels - 1) + "{}" + "}".repeat(levels - 1);
const detailsOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return (err as ServiceError).details;
  }
  return undefined;
};

describe("jsonTooDeep", () => {
  test("the top object or array is level 1; the limit is inclusive", () => {
    expect(JSON_MAX_DEPTH).toBe(32);
    expect(jsonTooDeep("{}")).toBe(false);
    expect(jsonTooDeep("1")).toBe(false);
    expect(jsonTooDeep(nested(32))).toBe(false);
    expect(jsonTooDeep(nested(33))).toBe(true);
    expect(jsonTooDeep(objects(32))).toBe(false);
    expect(jsonTooDeep(objects(33))).toBe(true);
    expect(jsonTooDeep('{"a":[1,{"b":[]}],"c":{}}', 4)).toBe(false);
    expect(jsonTooDeep('{"a":[1,{"b":[]}],"c":{}}', 3)).toBe(true);
  });

  test("brackets inside strings, escaped quotes and backslashes included, do not count", () => {
    expect(jsonTooDeep(JSON.stringify({ s: "[".repeat(1000) + '\\"{{{' + "\\" }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify(["\\", "[[[["]), 1)).toBe(false);
    expect(jsonTooDeep(JSON.stringify(['"', "[[[["]), 1)).toBe(false);
    expect(jsonTooDeep(JSON.stringify([["\\\\"], ["x"]]), 1)).toBe(true);
    expect(jsonTooDeep('["unterminated [[[[', 1)).toBe(false);
  });

  test("1 MiB of [[[[ (or of nested objects) is refused in one pass, without recursion", () => {
    const started = performance.now();
    expect(jsonTooDeep("[".repeat(1 << 20))).toBe(true);
    expect(jsonTooDeep('{"a":'.repeat(200_000))).toBe(true);
    expect(jsonTooDeep(nested(50_000))).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
  });

  test("a 1 MiB string is skipped, not walked character by character", () => {
    const body = JSON.stringify({ content: "x[".repeat(512 * 1024) });
    const started = performance.now();
    for (let i = 0; i < 10; i++) expect(jsonTooDeep(body)).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe("checkJsonDepth / checkJsonQueryParams", () => {
  test("too deep → VALIDATION_ERROR naming the field, constraint max_depth and the limit", () => {
    const tooDeep = { field: "body", constraint: "max_depth", max: 32 };
    expect(detailsOf(() => checkJsonDepth(nested(33), "body"))).toEqual(tooDeep);
    expect(detailsOf(() => checkJsonDepth(nested(32), "body"))).toBeUndefined();
  });

  test("JSON in query parameters: each named parameter is checked, others are left alone", () => {
    const deep = encodeURIComponent(`{"m":${nested(40)}}`);
    const check = (q: string) =>
      detailsOf(() => checkJsonQueryParams(`/graphql?query=%7Bx%7D&${q}`, ["variables", "extensions"]));
    expect(check(`variables=${deep}`)).toEqual({ field: "variables", constraint: "max_depth", max: 32 });
    expect(check(`extensions=${deep}`)).toMatchObject({ field: "extensions" });
    expect(check(`other=${deep}`)).toBeUndefined();
    expect(check(`variables=${encodeURIComponent(`{"m":${nested(31)}}`)}`)).toBeUndefined();
    expect(detailsOf(() => checkJsonQueryParams("/graphql", ["variables"]))).toBeUndefined();
  });
});
