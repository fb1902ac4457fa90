import { beforeAll, describe, expect, test } from "bun:test";
import { memoryRecordFixture } from "../../services/contract/portability.fixture";
import { dataOf, exportLines, importText, portTenant } from "./portability-helpers";

/**
 * An import line is held to the rules of the API: each field a line shares with `POST /v1/memories` (or
 * `/v1/entities`, `/v1/tags`) is refused when the API refuses it, with the same code and details, and the other
 * lines still go in.
 */

let target: Awaited<ReturnType<typeof portTenant>>;
beforeAll(async () => {
  target = await portTenant();
});

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let v = leaf;
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
};
/** JSON text of arrays nested `depth` deep: too deep for a recursive JSON.stringify to build. */
const deepArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const memoryLine = (over: Record<string, unknown>) =>
  JSON.stringify(memoryRecordFixture({ id: crypto.randomUUID(), external_id: null, ...over } as never));

/** Metadata the API refuses, each as JSON text (some cannot be built as objects and serialized). */
const badMetadata: [string, string][] = [
  ["seven levels deep", JSON.stringify(nested(7))],
  ["arrays nested 20,000 deep", `{"a":${deepArrays(20_000)}}`],
  ["200 KB", JSON.stringify({ big: "x".repeat(200_000) })],
  ["a __proto__ key", '{"__proto__":{"admin":true}}'],
  ["a constructor key, nested", '{"a":{"constructor":1}}'],
  ["a lone-surrogate key", '{"\\ud800":1}'],
  ["a lone-surrogate value", '{"a":"\\udfff"}'],
  ["not an object", "[1,2]"],
];

/** The error the API gives for a memory with this metadata: its code and details. */
async function apiRefusal(metadataJson: string, path = "/v1/memories", body = '{"content":"api"') {
  const res = await fetch(`${target.baseUrl}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${target.key}`, "Content-Type": "application/json" },
    body: `${body},"metadata":${metadataJson}}`,
  });
  const answer = (await res.json()) as any;
  return { status: res.status, code: answer.error?.code, details: answer.error?.details };
}

/** The API names the whole body where an import names the line: the rest of the details are the same. */
const asLine = (details: any) => (details?.field === "body" ? { ...details, field: "line" } : details);

describe("POST /v1/import: a memory line's metadata", () => {
  test.each(badMetadata)("%s: refused as POST /v1/memories refuses it; the lines around it go in", async (_n, md) => {
    const api = await apiRefusal(md);
    expect(api.status).toBe(400);
    const before = memoryLine({ content: "before" });
    const bad = memoryLine({ content: "bad" }).replace('"metadata":{}', `"metadata":${md}`);
    const after = memoryLine({ content: "after" });
    const res = await importText(target.baseUrl, target.key, [before, bad, after].join("\n"));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ lines: 3, failed: 1, created: { memories: 2 } });
    expect(res.body.data.errors).toHaveLength(1);
    const [error] = res.body.data.errors;
    expect({ line: error.line, code: error.code, details: error.details }).toEqual({
      line: 2,
      code: api.code,
      details: asLine(api.details),
    });
  });

  test("none of the refused metadata was stored", async () => {
    const memories = dataOf(await exportLines(target.baseUrl, target.key)).filter((r) => r.type === "memory");
    expect(memories.some((m) => m.content === "bad")).toBe(false);
    expect(memories.every((m) => JSON.stringify(m.metadata) === "{}")).toBe(true);
  });
});

describe("POST /v1/import: an entity line's metadata", () => {
  test.each(badMetadata)("%s: refused as POST /v1/entities refuses it", async (name, md) => {
    const api = await apiRefusal(md, "/v1/entities", `{"name":"api ${name}","type":"person"`);
    expect(api.status).toBe(400);
    const entity = {
      type: "entity",
      id: crypto.randomUUID(),
      name: `bad ${name}`,
      entity_type: "person",
      description: null,
      metadata: {},
      created_at: "2024-01-01T00:00:00.000Z",
    };
    const bad = JSON.stringify(entity).replace('"metadata":{}', `"metadata":${md}`);
    const good = JSON.stringify({ ...entity, id: crypto.randomUUID(), name: `good ${name}` });
    const res = await importText(target.baseUrl, target.key, [bad, good].join("\n"));
    expect(res.body.data).toMatchObject({ lines: 2, failed: 1, created: { entities: 1 } });
    const [error] = res.body.data.errors;
    expect({ line: error.line, code: error.code, details: error.details }).toEqual({
      line: 1,
      code: api.code,
      details: asLine(api.details),
    });
  });
});

describe("POST /v1/import: the other fields a line shares with the API", () => {
  const tag = { type: "tag", name: "t", color: null, description: null, created_at: "2024-01-01T00:00:00Z" };
  const tagLine = (over: Record<string, unknown>) => JSON.stringify({ ...tag, id: crypto.randomUUID(), ...over });
  const long = "x".repeat(100_001);
  // Each case: a line, and the API request that carries the same value (same field, same refusal).
  const cases: [string, string, string, string][] = [
    ["content too long", memoryLine({ content: long }), "/v1/memories", `{"content":"${long}"}`],
    ["empty content", memoryLine({ content: "" }), "/v1/memories", '{"content":""}'],
    ["a lone surrogate in content", memoryLine({ content: "a\ud800" }), "/v1/memories", '{"content":"a\\ud800"}'],
    [
      "external_id too long",
      memoryLine({ external_id: "e".repeat(256) }),
      "/v1/memories",
      `{"content":"c","external_id":"${"e".repeat(256)}"}`,
    ],
    [
      "an occurred_at that is no date",
      memoryLine({ occurred_at: "2024-13-01T00:00:00Z" }),
      "/v1/memories",
      '{"content":"c","occurred_at":"2024-13-01T00:00:00Z"}',
    ],
    [
      "a parent that is no uuid",
      memoryLine({ parent_memory_id: "42" }),
      "/v1/memories",
      '{"content":"c","parent_memory_id":"42"}',
    ],
    ["a tag's name too long", tagLine({ name: "n".repeat(51) }), "/v1/tags", `{"name":"${"n".repeat(51)}"}`],
    ["a tag's color", tagLine({ color: "red" }), "/v1/tags", '{"name":"t","color":"red"}'],
    ["a lone surrogate in a tag's name", tagLine({ name: "\udc00" }), "/v1/tags", '{"name":"\\udc00"}'],
  ];
  test.each(cases)(
    "%s: refused with the API's code and details; the next line goes in",
    async (_n, line, path, body) => {
      const res = await fetch(`${target.baseUrl}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${target.key}`, "Content-Type": "application/json" },
        body,
      });
      expect(res.status).toBe(400);
      const api = ((await res.json()) as any).error;
      const imported = await importText(target.baseUrl, target.key, `${line}\n${memoryLine({ content: "fine" })}`);
      expect(imported.body.data).toMatchObject({ lines: 2, failed: 1, created: { memories: 1 } });
      const [error] = imported.body.data.errors;
      expect({ line: error.line, code: error.code, details: error.details }).toEqual({
        line: 1,
        code: api.code,
        details: api.details,
      });
    },
  );

  test("a memory's tag name too long is refused, as a tag of that name is", async () => {
    const res = await importText(target.baseUrl, target.key, memoryLine({ tags: ["n".repeat(51)] }));
    expect(res.body.data.errors[0]).toMatchObject({ details: { field: "tags.0", constraint: "max_length", max: 50 } });
  });

  test("a line of bytes that are not UTF-8 is refused alone, as the API refuses such a body", async () => {
    const good = new TextEncoder().encode(`\n${memoryLine({ content: "after bad bytes" })}\n`);
    const bad = new TextEncoder().encode(memoryLine({ content: "XX" }));
    const at = Buffer.from(bad).indexOf("XX");
    bad[at] = 0xff;
    bad[at + 1] = 0xfe;
    const res = await fetch(`${target.baseUrl}/v1/import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${target.key}` },
      body: Buffer.concat([bad, good]),
    });
    const data = ((await res.json()) as any).data;
    expect(data).toMatchObject({ lines: 2, failed: 1, created: { memories: 1 } });
    expect(data.errors[0]).toMatchObject({
      line: 1,
      code: "VALIDATION_ERROR",
      details: { field: "line", constraint: "utf8" },
    });
  });
});

describe("POST /v1/import: a line nested too deep", () => {
  test("100,000 levels: refused alone before it is parsed, in bounded time; the next line goes in", async () => {
    const started = performance.now();
    const deep = `{"type":"memory","metadata":${deepArrays(100_000)}}`;
    const body = [deep, memoryLine({ content: "after the deep line" }), deepArrays(100_000)].join("\n");
    const res = await importText(target.baseUrl, target.key, body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ lines: 3, failed: 2, created: { memories: 1 } });
    expect(res.body.data.errors).toEqual(
      [1, 3].map((line) => ({
        line,
        code: "VALIDATION_ERROR",
        message: "line must be nested at most 32 levels deep",
        details: { field: "line", constraint: "max_depth", max: 32 },
      })),
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test("deep lines among good ones: each refused alone, every good one in", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) lines.push(i % 2 ? deepArrays(100_000) : memoryLine({ content: `ok ${i}` }));
    const res = await importText(target.baseUrl, target.key, lines.join("\n"));
    expect(res.body.data).toMatchObject({ lines: 40, failed: 20, created: { memories: 20 } });
  });
});
