import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { exportLines, portTenant, seed } from "./portability-helpers";

/**
 * `GET /v1/export?cursor=` reaches a Redis function: a cursor no export gave, whatever its shape, is a 400 on
 * `cursor` (never a 5xx), and one an export gave still goes on where it was.
 */

let source: Awaited<ReturnType<typeof portTenant>>;
let given: string[];
beforeAll(async () => {
  source = await portTenant();
  await seed(source.api);
  const paged = await exportLines(source.baseUrl, source.key, "?limit=1");
  given = paged.filter((l) => l.type === "cursor" && l.cursor !== null).map((l) => l.cursor);
});

const encode = (x: unknown) => Buffer.from(JSON.stringify(x) ?? "null").toString("base64url");
const exportFrom = async (cursor: string) => {
  const res = await fetch(`${source.baseUrl}/v1/export?limit=3&cursor=${encodeURIComponent(cursor)}`, {
    headers: { Authorization: `Bearer ${source.key}` },
  });
  return { status: res.status, body: await res.text() };
};
const id = "0b5e7c1e-8a6b-4c3d-9e2f-1a2b3c4d5e6f";

describe("GET /v1/export: forged cursors", () => {
  const forged: [string, unknown][] = [
    ["tags after a score that is no number", { phase: "t", after: ["x", "y"] }],
    ["entities after a score that is no number", { phase: "e", after: ["nan", id] }],
    ["memories, a frame's score no number", { phase: "m", stack: [["", 1, "abc", id]] }],
    [
      "memories, a frame's parent no id",
      {
        phase: "m",
        stack: [
          ["", 1, "", ""],
          ["x:y", 1, "", ""],
        ],
      },
    ],
    ["a score with no id", { phase: "t", after: ["1700000000000", ""] }],
    ["a score as a JSON number", { phase: "t", after: [1700000000000, id] }],
    ["an id that is no uuid", { phase: "e", after: ["1700000000000", "*"] }],
    ["an empty stack", { phase: "m", stack: [] }],
    ["a frame's flag of 2", { phase: "m", stack: [["", 2, "", ""]] }],
    ["a stack too deep", { phase: "m", stack: Array.from({ length: 67 }, () => [id, 1, "", ""]) }],
  ];
  test.each(forged)("%s: 400 VALIDATION_ERROR on cursor", async (_name, position) => {
    const res = await exportFrom(encode(position));
    expect(res.status).toBe(400);
    const error = JSON.parse(res.body).error;
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details).toMatchObject({ field: "cursor" });
  });

  test("every cursor an export gave still goes on from where it was", async () => {
    expect(given.length).toBeGreaterThan(10);
    for (const cursor of given) expect((await exportFrom(cursor)).status).toBe(200);
  });

  test("garbage shaped like a position (300 generated): a 400 or a 200, never a 5xx", async () => {
    const text = fc.oneof(
      fc.constantFrom("", "x", "nan", "inf", "-inf", "(1", "1e999", "1.5", "-3", id, "0x10", " 1", "1 "),
      fc.string({ maxLength: 8 }),
    );
    const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const pair = fc.oneof(fc.tuple(scalar, scalar), fc.array(scalar, { maxLength: 3 }), scalar);
    const frame = fc.oneof(
      fc.tuple(text, fc.constantFrom(0, 1, 2, "1"), text, text),
      fc.array(scalar, { maxLength: 5 }),
    );
    const position = fc.oneof(
      fc.record({ phase: fc.constantFrom("t", "e", "m", "x", 1), after: pair }),
      fc.record({ phase: fc.constantFrom("m", "t"), stack: fc.array(frame, { maxLength: 4 }) }),
      fc.record({ phase: fc.constantFrom("t", "m"), after: pair, stack: fc.array(frame, { maxLength: 2 }) }),
      fc.anything(),
    );
    const cursors = fc.sample(
      fc.oneof({ weight: 5, arbitrary: position.map(encode) }, fc.string({ minLength: 1, maxLength: 40 })),
      { numRuns: 300, seed: 20261127 },
    );
    const fives: string[] = [];
    for (const cursor of cursors) {
      const res = await exportFrom(cursor);
      if (res.status >= 500 || ![200, 400].includes(res.status)) fives.push(`${res.status} ${cursor} ${res.body}`);
    }
    expect(fives).toEqual([]);
  }, 120_000);
});
