import { afterAll, describe, expect, test } from "bun:test";
import { rawSuccessResponse, STREAM_FROM_BYTES } from "./envelope";

const encoder = new TextEncoder();
/** The JSON text of `data` whose length is exactly `bytes`. */
const dataOf = (bytes: number) => encoder.encode(JSON.stringify({ s: "x".repeat(bytes - 8) }));
const meta = { request_id: "r-1", latency_ms: 1 };

/** Answers after an `await`, as the gateway does (the case Bun sends uncorked). */
const server = Bun.serve({
  port: 0,
  async fetch(req) {
    await Bun.sleep(1);
    return rawSuccessResponse(dataOf(Number(new URL(req.url).searchParams.get("bytes"))), meta, {});
  },
});
afterAll(() => server.stop(true));
const get = (bytes: number) => fetch(`http://127.0.0.1:${server.port}/?bytes=${bytes}`);

describe("success bodies from STREAM_FROM_BYTES go out as one chunk", () => {
  test("the data is the size asked for", () => {
    expect(dataOf(STREAM_FROM_BYTES).length).toBe(STREAM_FROM_BYTES);
  });

  test("from the threshold: the whole envelope in the stream's one chunk", async () => {
    for (const bytes of [STREAM_FROM_BYTES, 20_000, 300_000]) {
      const res = rawSuccessResponse(dataOf(bytes), meta, {});
      const chunks: Uint8Array[] = [];
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
      expect(chunks).toHaveLength(1);
      const body = JSON.parse(new TextDecoder().decode(chunks[0]));
      expect(body).toEqual({ data: { s: "x".repeat(bytes - 8) }, meta });
    }
  });

  test("over HTTP: from the threshold chunked, below it with a Content-Length; the same envelope", async () => {
    const large = await get(STREAM_FROM_BYTES);
    expect(large.headers.get("Transfer-Encoding")).toBe("chunked");
    expect(large.headers.get("Content-Length")).toBeNull();
    expect(await large.json()).toEqual({ data: { s: "x".repeat(STREAM_FROM_BYTES - 8) }, meta });
    const small = await get(STREAM_FROM_BYTES - 1);
    const text = await small.text();
    expect(Number(small.headers.get("Content-Length"))).toBe(encoder.encode(text).length);
    expect(JSON.parse(text)).toEqual({ data: { s: "x".repeat(STREAM_FROM_BYTES - 9) }, meta });
    expect(large.headers.get("X-Request-Id")).toBe("r-1");
  });
});
