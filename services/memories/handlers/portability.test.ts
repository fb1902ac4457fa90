import { describe, expect, test } from "bun:test";
import { ServiceError } from "../../contract/errors";
import { ctx } from "./handler.fixture";
import fc from "fast-check";
import { decodeCursor, derivedId, encodeCursor, portabilityHandlers, type PortabilityDeps } from "./portability";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("derivedId", () => {
  test("a v4-shaped UUID, the same for the same space and id, another for another space", () => {
    const id = crypto.randomUUID();
    const a = derivedId({ tenant: "acme", env: "live" }, id);
    expect(a).toMatch(UUID_V4);
    expect(a).not.toBe(id);
    expect(derivedId({ tenant: "acme", env: "live" }, id)).toBe(a);
    expect(derivedId({ tenant: "acme", env: "test" }, id)).not.toBe(a);
  });
});

describe("export cursors", () => {
  const seen: unknown[] = [];
  const port = {
    exportPage: async (_s: unknown, from: unknown) => {
      seen.push(from);
      return { records: [], next: null };
    },
  };
  const h = portabilityHandlers({ port } as unknown as PortabilityDeps);
  const encode = (x: unknown) => Buffer.from(JSON.stringify(x) ?? "").toString("base64url");
  const id = crypto.randomUUID();

  test.each([
    ["the start of the tags", { phase: "t", after: ["", ""] }],
    ["after an entity", { phase: "e", after: ["1700000000000", id] }],
    ["a memories' walk", { phase: "m", stack: [["", 1, "1700000000000", id]] }],
    [
      "a walk two deep, a negative score",
      {
        phase: "m",
        stack: [
          ["", 1, "-5", id],
          [id, 0, "", ""],
        ],
      },
    ],
    ["a score as Redis may write it", { phase: "t", after: ["1.5e+18", id] }],
  ])("%s: a cursor an export gives reaches the store as the position it encodes", async (_name, at) => {
    expect(await h.page({ cursor: encodeCursor(at as never) }, ctx)).toEqual({ records: [], cursor: null });
    expect(seen.at(-1)).toEqual(at);
  });

  test.each([
    ["not base64 JSON", "%%%"],
    ["JSON of another shape", encode({ phase: "x", after: ["", ""] })],
    ["an extra field", encode({ phase: "t", after: ["", ""], more: 1 })],
    ["a frame's parent too long", encode({ phase: "m", stack: [["x".repeat(65), 1, "", ""]] })],
    ["a score that is no number", encode({ phase: "t", after: ["x", "y"] })],
    ["NaN as a score", encode({ phase: "e", after: ["nan", id] })],
    ["an exclusive score", encode({ phase: "e", after: ["(1", id] })],
    ["a score as a JSON number", encode({ phase: "t", after: [1, id] })],
    ["a score without its id", encode({ phase: "t", after: ["1", ""] })],
    [
      "an id that names another key",
      encode({
        phase: "m",
        stack: [
          ["", 1, "", ""],
          [`${id}:x`, 1, "", ""],
        ],
      }),
    ],
    ["an empty walk", encode({ phase: "m", stack: [] })],
    ["a frame's flag of 2", encode({ phase: "m", stack: [["", 2, "", ""]] })],
    ["a walk deeper than a hierarchy", encode({ phase: "m", stack: Array(67).fill([id, 1, "", ""]) })],
    ["JSON nested 5,000 deep", Buffer.from("[".repeat(5000) + "]".repeat(5000)).toString("base64url")],
  ])("%s is a validation error on `cursor`, and nothing reaches the store", async (_name, cursor) => {
    const before = seen.length;
    const err = await Promise.resolve(h.page({ cursor }, ctx)).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.details).toEqual({ field: "cursor", constraint: "format" });
    expect(seen.length).toBe(before);
  });

  test("2,000 generated cursors: each is a position export.lua writes, or a validation error on `cursor`", () => {
    const text = fc.oneof(fc.constantFrom("", "1", "-1.25", "1e+3", "nan", "inf", "(1", " 1", id), fc.string());
    const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const frame = fc.oneof(fc.tuple(text, fc.constantFrom(0, 1, 2), text, text), fc.array(scalar, { maxLength: 5 }));
    const position = fc.oneof(
      fc.record({ phase: fc.constantFrom("t", "e", "m", "x"), after: fc.array(scalar, { maxLength: 3 }) }),
      fc.record({ phase: fc.constantFrom("m", "t"), stack: fc.array(frame, { maxLength: 3 }) }),
      fc.anything(),
    );
    const cursor = fc.oneof(position.map(encode), fc.string({ minLength: 1 }), fc.base64String({ minLength: 1 }));
    const SCORE = /^-?[0-9]{1,20}(\.[0-9]{1,20})?(e[+-]?[0-9]{1,3})?$/;
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
    const member = (score: unknown, m: unknown) =>
      (score === "" && m === "") || (typeof score === "string" && SCORE.test(score) && UUID.test(m as string));
    fc.assert(
      fc.property(cursor, (c) => {
        let at: any;
        try {
          at = decodeCursor(c);
        } catch (err) {
          return err instanceof ServiceError && (err.details as any)?.field === "cursor";
        }
        if (at.phase === "t" || at.phase === "e") return member(at.after[0], at.after[1]);
        return at.stack.every((f: unknown[]) => (f[0] === "" || UUID.test(f[0] as string)) && member(f[2], f[3]));
      }),
      { numRuns: 2000, seed: 20261127 },
    );
  });
});
