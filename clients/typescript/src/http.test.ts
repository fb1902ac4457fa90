import { afterAll, describe, expect, test } from "bun:test";
import { AbortError, MemoryServiceError } from "./errors.ts";
import { createTransport, queryString } from "./http.ts";

/** A local HTTP server answering from a script of responses, recording what it was sent. */
function scripted(answers: (() => Response | Promise<Response>)[]) {
  const seen: { headers: Headers; body: string }[] = [];
  const server = Bun.serve({
    port: 0,
    async fetch(request) {
      seen.push({ headers: new Headers(request.headers), body: await request.text() });
      const next = answers.shift();
      return next ? next() : new Response("no more answers", { status: 599 });
    },
  });
  servers.push(server);
  return { url: `http://127.0.0.1:${server.port}`, seen };
}
const servers: ReturnType<typeof Bun.serve>[] = [];
afterAll(() => {
  for (const s of servers) s.stop(true);
});

const envelope = (data: unknown) => Response.json({ data, meta: { request_id: "r1", latency_ms: 1 } });
const refusal = (status: number, code: string, headers: Record<string, string> = {}) =>
  Response.json(
    { error: { code, message: code.toLowerCase() }, meta: { request_id: "r2" } },
    {
      status,
      headers: { "X-Request-Id": "r2", ...headers },
    },
  );
const fast = { retries: 3, baseDelayMs: 1, maxDelayMs: 5 };

test("queryString repeats arrays and drops absent values", () => {
  expect(queryString({ tag_id: ["a", "b"], root: true, limit: 5, x: undefined, y: null })).toBe(
    "?tag_id=a&tag_id=b&root=true&limit=5",
  );
  expect(queryString({})).toBe("");
  expect(queryString({ q: "a b&c" })).toBe("?q=a%20b%26c");
});

describe("transport", () => {
  test("sends the key and JSON, answers data and meta", async () => {
    const s = scripted([() => envelope({ id: "m1" })]);
    const request = createTransport({ baseUrl: `${s.url}/`, apiKey: "svc_test_x" });
    const out = await request({ method: "POST", path: "/v1/memories", body: { content: "hi" }, idempotent: false });
    expect(out).toEqual({ data: { id: "m1" }, meta: { request_id: "r1", latency_ms: 1 } });
    expect(s.seen[0]!.headers.get("authorization")).toBe("Bearer svc_test_x");
    expect(s.seen[0]!.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(s.seen[0]!.body)).toEqual({ content: "hi" });
  });

  test("a refusal is a MemoryServiceError with code, details and request id", async () => {
    const s = scripted([
      () =>
        Response.json(
          { error: { code: "VALIDATION_ERROR", message: "bad", details: { field: "content" } } },
          { status: 400, headers: { "X-Request-Id": "r9" } },
        ),
    ]);
    const request = createTransport({ baseUrl: s.url, apiKey: "k" });
    const err = await request({ method: "GET", path: "/x", idempotent: true }).catch((e) => e);
    expect(err).toBeInstanceOf(MemoryServiceError);
    expect([err.status, err.code, err.message, err.details, err.requestId]).toEqual([
      400,
      "VALIDATION_ERROR",
      "bad",
      { field: "content" },
      "r9",
    ]);
  });

  test("429 is retried after Retry-After, writes included", async () => {
    const s = scripted([() => refusal(429, "RATE_LIMITED", { "Retry-After": "0" }), () => envelope("ok")]);
    const request = createTransport({ baseUrl: s.url, apiKey: "k", retry: fast });
    expect((await request({ method: "POST", path: "/w", body: {}, idempotent: false })).data).toBe("ok");
    expect(s.seen.length).toBe(2);
  });

  test("503 is retried for reads, never for writes", async () => {
    const read = scripted([
      () => refusal(503, "SERVICE_UNAVAILABLE"),
      () => refusal(504, "TIMEOUT"),
      () => envelope(1),
    ]);
    const reader = createTransport({ baseUrl: read.url, apiKey: "k", retry: fast });
    expect((await reader({ method: "GET", path: "/r", idempotent: true })).data).toBe(1);
    expect(read.seen.length).toBe(3);

    const write = scripted([() => refusal(503, "SERVICE_UNAVAILABLE"), () => envelope(1)]);
    const writer = createTransport({ baseUrl: write.url, apiKey: "k", retry: fast });
    const err = await writer({ method: "POST", path: "/w", body: {}, idempotent: false }).catch((e) => e);
    expect(err.code).toBe("SERVICE_UNAVAILABLE");
    expect(write.seen.length).toBe(1);
  });

  test("a write with an Idempotency-Key sends it on every attempt and is retried after 503 and 409", async () => {
    const s = scripted([
      () => refusal(503, "SERVICE_UNAVAILABLE"),
      () => refusal(409, "IDEMPOTENCY_IN_FLIGHT"),
      () => envelope("once"),
    ]);
    const writer = createTransport({ baseUrl: s.url, apiKey: "k", retry: fast });
    const spec = { method: "POST", path: "/w", body: {}, idempotent: false } as const;
    expect((await writer(spec, { idempotencyKey: "k-1" })).data).toBe("once");
    expect(s.seen.map((r) => r.headers.get("idempotency-key"))).toEqual(["k-1", "k-1", "k-1"]);
  });

  test("retries stop after `retries`, answering the last error", async () => {
    const s = scripted(Array.from({ length: 5 }, () => () => refusal(503, "SERVICE_UNAVAILABLE")));
    const request = createTransport({ baseUrl: s.url, apiKey: "k", retry: { ...fast, retries: 2 } });
    expect((await request({ method: "GET", path: "/r", idempotent: true }).catch((e) => e)).code).toBe(
      "SERVICE_UNAVAILABLE",
    );
    expect(s.seen.length).toBe(3);
  });

  test("an attempt past timeoutMs is a NETWORK_ERROR; a read is tried again", async () => {
    const slow = () => Bun.sleep(300).then(() => envelope("late"));
    const s = scripted([slow, () => envelope("fast")]);
    const request = createTransport({ baseUrl: s.url, apiKey: "k", timeoutMs: 50, retry: fast });
    expect((await request({ method: "GET", path: "/r", idempotent: true })).data).toBe("fast");
    const w = scripted([slow]);
    const writer = createTransport({ baseUrl: w.url, apiKey: "k", timeoutMs: 50, retry: fast });
    const err = await writer({ method: "POST", path: "/w", body: {}, idempotent: false }).catch((e) => e);
    expect([err.code, err.message]).toEqual(["NETWORK_ERROR", "No answer within 50 ms"]);
  });

  test("the caller's AbortSignal ends the call, also while it waits to retry", async () => {
    const s = scripted([() => refusal(429, "RATE_LIMITED", { "Retry-After": "30" })]);
    const request = createTransport({ baseUrl: s.url, apiKey: "k" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const err = await request({ method: "GET", path: "/r", idempotent: true }, { signal: controller.signal }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(AbortError);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test("an answer without the envelope still gets a code", async () => {
    const s = scripted([() => new Response("Payload Too Large", { status: 413 })]);
    const request = createTransport({ baseUrl: s.url, apiKey: "k" });
    const err = await request({ method: "POST", path: "/w", body: {}, idempotent: false }).catch((e) => e);
    expect([err.status, err.code]).toEqual([413, "VALIDATION_ERROR"]);
  });
});
