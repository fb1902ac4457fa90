import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { createOpenAiEmbedder, endpointOf } from "./openai";

/**
 * A local server speaking the OpenAI `/v1/embeddings` protocol: it answers vectors derived from the
 * text, in shuffled order (clients must use `index`), and fails on demand.
 */
let server: Server<undefined>;
const requests: { auth: string | null; body: any }[] = [];
let failures: number[] = [];

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== "/v1/embeddings") return new Response("not found", { status: 404 });
      const body = (await req.json()) as { model: string; input: string[]; dimensions?: number };
      requests.push({ auth: req.headers.get("authorization"), body });
      const status = failures.shift();
      if (status) return new Response(JSON.stringify({ error: { message: "nope" } }), { status });
      const dims = body.dimensions ?? 3;
      const data = body.input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: Array.from({ length: dims }, (_, i) => text.length + i),
      }));
      return Response.json({
        object: "list",
        model: body.model,
        data: data.reverse(),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    },
  });
});
afterAll(() => server.stop(true));

const base = () => `http://127.0.0.1:${server.port}/v1`;

describe("OpenAI-compatible embeddings client", () => {
  test("probes the dimensions, sends model/input/key, and orders vectors by index", async () => {
    requests.length = 0;
    const e = await createOpenAiEmbedder({ url: base(), model: "nomic-embed-text", apiKey: "sk-test" });
    expect(e.dimensions).toBe(3);
    expect(e.model).toBe("nomic-embed-text");
    const out = await e.embed(["a", "bbb"]);
    expect(out.map((v) => [...v])).toEqual([
      [1, 2, 3],
      [3, 4, 5],
    ]);
    expect(requests.at(-1)).toEqual({
      auth: "Bearer sk-test",
      body: { model: "nomic-embed-text", input: ["a", "bbb"], encoding_format: "float" },
    });
    expect(await e.embed([])).toEqual([]);
  });

  test("asks for the configured dimensions without a probe", async () => {
    requests.length = 0;
    const e = await createOpenAiEmbedder({
      url: `${base()}/embeddings`,
      model: "text-embedding-3-small",
      dimensions: 5,
    });
    expect(requests.length).toBe(0);
    const [v] = await e.embed(["xy"]);
    expect([...v!]).toEqual([2, 3, 4, 5, 6]);
    expect(requests[0]!.body.dimensions).toBe(5);
    expect(requests[0]!.auth).toBeNull();
  });

  test("retries 429 and 5xx with backoff, fails at once on other errors", async () => {
    const e = await createOpenAiEmbedder({ url: base(), model: "m", dimensions: 3, retries: 2 });
    failures = [503, 429];
    expect((await e.embed(["abc"]))[0]!.length).toBe(3);
    failures = [500, 500, 500];
    await expect(e.embed(["abc"])).rejects.toThrow("embeddings endpoint answered 500");
    failures = [400];
    await expect(e.embed(["abc"])).rejects.toThrow("embeddings endpoint answered 400");
    failures = [];
  });

  test("a server that changes its dimensions is an error, not a corrupt index", async () => {
    const e = await createOpenAiEmbedder({ url: base(), model: "m" });
    const lying = await createOpenAiEmbedder({
      url: base(),
      model: "m",
      dimensions: 3,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const body = JSON.parse(String(init!.body));
        return fetch(input, { ...init, body: JSON.stringify({ ...body, dimensions: 4 }) });
      }) as typeof fetch,
    });
    expect(e.dimensions).toBe(3);
    await expect(lying.embed(["x"])).rejects.toThrow("returned 4 dimensions, expected 3");
  });

  test("an unreachable endpoint is a clear error", async () => {
    await expect(createOpenAiEmbedder({ url: "http://127.0.0.1:1/v1", model: "m", retries: 0 })).rejects.toThrow(
      "embeddings endpoint unreachable",
    );
    expect(endpointOf("http://h/v1/")).toBe("http://h/v1/embeddings");
    expect(endpointOf("http://h/api/embeddings")).toBe("http://h/api/embeddings");
  });
});
