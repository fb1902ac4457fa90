import { describe, expect, test } from "bun:test";
import { readJsonObject, unpairedSurrogateAt } from "./body";
import { ServiceError } from "../../services/contract/errors";

const post = (body: BodyInit) => new Request("http://x/v1/memories", { method: "POST", body });
const detailsOf = async (p: Promise<unknown>) => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ServiceError);
  return { code: (err as ServiceError).code, message: (err as ServiceError).message, details: (err as ServiceError).details };
};

describe("readJsonObject", () => {
  test("bytes that are not UTF-8 → 400 body/utf8, never decoded into U+FFFD", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"content":"'), 0xff, 0xfe, ...new TextEncoder().encode('"}')]);
    expect(await detailsOf(readJsonObject(post(bytes), 1024))).toEqual({
      code: "VALIDATION_ERROR",
      message: "Request body is not valid UTF-8",
      details: { field: "body", constraint: "utf8" },
    });
  });

  test("a lone surrogate escape names the field holding it, nested or in a key", async () => {
    const at = async (json: string) => (await detailsOf(readJsonObject(post(json), 1024))).details;
    expect(await at('{"content":"a\\ud800b"}')).toEqual({ field: "content", constraint: "unicode" });
    expect(await at('{"content":"ok","metadata":{"a":[1,{"b":"\\udc00"}]}}')).toEqual({ field: "metadata.a.1.b", constraint: "unicode" });
    expect(await at('{"metadata":{"k\\ud83d":1}}')).toEqual({ field: "metadata.k\ud83d", constraint: "unicode" });
  });

  test("well-formed text of every plane passes unchanged, surrogate pairs included (escaped or raw)", async () => {
    const body = await readJsonObject(post('{"content":"\\ud83e\\udde0 🧠 日本語 e\\u0301","metadata":{"🎉":["ß"]}}'), 1024);
    expect(body).toEqual({ content: "🧠 🧠 日本語 e\u0301", metadata: { "🎉": ["ß"] } });
  });
});

describe("readJsonObject: nesting", () => {
  const deep = (levels: number) => `{"query":"x","metadata":{"a":${'{"a":'.repeat(levels)}1${"}".repeat(levels)}}}`;
  const read = (body: string) => detailsOf(readJsonObject(post(body), 1 << 20));
  test("a body nested deeper than 32 levels → 400 body/max_depth, before it is parsed", async () => {
    const tooDeep = {
      code: "VALIDATION_ERROR" as const,
      message: "body must be nested at most 32 levels deep",
      details: { field: "body", constraint: "max_depth", max: 32 },
    };
    expect(await read(deep(10_000))).toEqual(tooDeep);
    expect(await read(`{"a":${"[".repeat(50_000)}${"]".repeat(50_000)}}`)).toEqual(tooDeep);
    expect(await read("[".repeat((1 << 20) - 1))).toEqual(tooDeep);
    expect(await readJsonObject(post(deep(30)), 1 << 20)).toMatchObject({ query: "x" }); // 32 levels in all
    expect((await read(deep(31))).details).toMatchObject({ constraint: "max_depth" });
  });
});

describe("unpairedSurrogateAt", () => {
  test("a body nested 100,000 levels deep is walked without overflowing the stack", () => {
    let deep: unknown = "\ud800";
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(unpairedSurrogateAt(deep as object)).toBe(Array(100_000).fill("a").join("."));
    let fine: unknown = "ok";
    for (let i = 0; i < 100_000; i++) fine = [fine];
    expect(unpairedSurrogateAt(fine as object)).toBeNull();
  });
});
