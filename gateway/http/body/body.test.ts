import { describe, expect, test } from "bun:test";
import { DISCARD, readJsonObject, settleConnection, unpairedSurrogateAt } from "./body";
import { ServiceError } from "../../../services/contract/errors";

const post = (body: BodyInit) => new Request("http://x/v1/memories", { method: "POST", body });
const detailsOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return {
    code: (err as ServiceError).code,
    message: (err as ServiceError).message,
    details: (err as ServiceError).details,
  };
};

describe("readJsonObject", () => {
  test("bytes that are not UTF-8 → 400 body/utf8, never decoded into U+FFFD", async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"content":"'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('"}'),
    ]);
    expect(await detailsOf(readJsonObject(post(bytes), 1024))).toEqual({
      code: "VALIDATION_ERROR",
      message: "Request body is not valid UTF-8",
      details: { field: "body", constraint: "utf8" },
    });
  });

  test("a lone surrogate escape names the field holding it, nested or in a key", async () => {
    const at = async (json: string) => (await detailsOf(readJsonObject(post(json), 1024))).details;
    expect(await at('{"content":"a\\ud800b"}')).toEqual({ field: "content", constraint: "unicode" });
    expect(await at('{"content":"ok","metadata":{"a":[1,{"b":"\\udc00"}]}}')).toEqual({
      field: "metadata.a.1.b",
      constraint: "unicode",
    });
    expect(await at('{"metadata":{"k\\ud83d":1}}')).toEqual({ field: "metadata.k\ud83d", constraint: "unicode" });
  });

  test("well-formed text of every plane passes unchanged, surrogate pairs included (escaped or raw)", async () => {
    const body = await readJsonObject(
      post('{"content":"\\ud83e\\udde0 🧠 日本語 e\\u0301","metadata":{"🎉":["ß"]}}'),
      1024,
    );
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

/** A chunked request whose body is `size` bytes in 64 KiB chunks, then (unless `endless`) its end. */
function streamed(size: number, opts: { endless?: boolean; pauseMs?: number } = {}) {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= size) {
        if (!opts.endless) return controller.close();
        await Bun.sleep(opts.pauseMs ?? 50); // a client trickling on
      }
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const init = { method: "POST", body, headers: { "Transfer-Encoding": "chunked" }, duplex: "half" };
  return { request: new Request("http://x/v1/memories", init as RequestInit), sent: () => sent };
}
const closes = async (request: Request, bounds = DISCARD) =>
  (await settleConnection(request, new Response("{}"), bounds)).headers.get("connection") === "close";

describe("readJsonObject: a streamed body over the limit", () => {
  const bounds = { maxBytes: 4 << 20, maxMs: 300, idleMs: 1000 };
  const refusal = async (request: Request) => (await detailsOf(readJsonObject(request, 1 << 20, bounds))).details;
  test("is read to its end and dropped within the bounds, so the connection stays open for the answer", async () => {
    const { request, sent } = streamed(3 << 20);
    expect(await refusal(request)).toEqual({ field: "body", constraint: "max_bytes", max: 1 << 20 });
    expect(sent()).toBe(3 << 20);
    expect(await closes(request)).toBe(false);
  });
  test("past the byte bound: answered without reading further, and the connection closes", async () => {
    const { request, sent } = streamed(64 << 20);
    expect(await refusal(request)).toMatchObject({ constraint: "max_bytes" });
    expect(sent()).toBeLessThan(5 << 20);
    expect(await closes(request)).toBe(true);
  });
  test("past the time bound (a body that never ends): answered on time, and the connection closes", async () => {
    const { request } = streamed(2 << 20, { endless: true });
    const started = performance.now();
    expect(await refusal(request)).toMatchObject({ constraint: "max_bytes" });
    expect(performance.now() - started).toBeLessThan(bounds.maxMs + 250);
    expect(await closes(request)).toBe(true);
  });
  test("a body read whole, or one with a declared length, keeps the connection", async () => {
    const whole = streamed(64 * 1024);
    await readJsonObject(whole.request, 1 << 20).catch(() => undefined);
    expect(await closes(whole.request)).toBe(false);
    expect(await closes(post('{"a":1}'))).toBe(false);
  });
});

describe("settleConnection: a body the answer did not read (a 401, a 404)", () => {
  const bounds = { maxBytes: 4 << 20, maxMs: 2000, idleMs: 200 };
  test("is read to its end before the answer goes out, and the connection stays open", async () => {
    const { request, sent } = streamed(3 << 20);
    expect(await closes(request, bounds)).toBe(false);
    expect(sent()).toBe(3 << 20);
    expect(request.bodyUsed).toBe(true);
  });
  test("with a declared length too", async () => {
    const request = post(" ".repeat(2 << 20));
    expect(await closes(request, bounds)).toBe(false);
    expect(request.bodyUsed).toBe(true);
  });
  test("past the byte bound: the rest is not read, and the connection closes", async () => {
    const { request, sent } = streamed(64 << 20);
    expect(await closes(request, bounds)).toBe(true);
    expect(sent()).toBeLessThan(6 << 20);
  });
  test("a client that pauses (waiting for the answer) is answered after idleMs; the connection closes", async () => {
    const { request } = streamed(1 << 20, { endless: true, pauseMs: 5000 });
    const started = performance.now();
    expect(await closes(request, bounds)).toBe(true);
    expect(performance.now() - started).toBeLessThan(bounds.idleMs + 250);
  });
  test("a client waiting for 100 Continue has sent nothing: answered at once, the body not read", async () => {
    const init = { method: "POST", body: "{}", headers: { Expect: "100-continue" } };
    const request = new Request("http://x/v1/memories", init);
    expect(await closes(request, bounds)).toBe(false);
    expect(request.bodyUsed).toBe(false);
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
