import type { Embedder } from "./embedder";

export interface OpenAiEmbedderOptions {
  /** Base URL of an OpenAI-compatible API ("…/v1"), or the full "…/embeddings" endpoint. */
  url: string;
  model: string;
  apiKey?: string;
  /** Asked of the server (OpenAI `dimensions`) and checked; probed with one call when absent. */
  dimensions?: number;
  /** How many tokens the model reads (its input limit): long memories are embedded in chunks of that size. */
  maxTokens?: number;
  timeoutMs?: number;
  retries?: number;
  fetch?: typeof fetch;
}

interface EmbeddingsResponse {
  data?: { embedding?: number[]; index?: number }[];
}

export const endpointOf = (url: string) =>
  /\/embeddings\/?$/.test(url) ? url : `${url.replace(/\/+$/, "")}/embeddings`;

/**
 * Client of the `/v1/embeddings` protocol spoken by OpenAI, Ollama, vLLM, TEI, LocalAI…
 * 429 and 5xx are retried with exponential backoff; anything else fails the call.
 */
export async function createOpenAiEmbedder(opts: OpenAiEmbedderOptions): Promise<Embedder> {
  const endpoint = endpointOf(opts.url);
  const doFetch = opts.fetch ?? fetch;
  const retries = opts.retries ?? 2;

  async function request(texts: string[], dimensions: number | undefined): Promise<Float32Array[]> {
    const body = JSON.stringify({
      model: opts.model,
      input: texts,
      encoding_format: "float",
      ...(dimensions ? { dimensions } : {}),
    });
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(endpoint, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            ...(opts.apiKey ? { Authorization: `Bearer ${opts.apiKey}` } : {}),
          },
          body,
          signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
        });
      } catch (err) {
        if (attempt < retries) {
          await Bun.sleep(200 * 2 ** attempt);
          continue;
        }
        throw new Error(`embeddings endpoint unreachable: ${(err as Error).message}`);
      }
      if (res.ok) return parse((await res.json()) as EmbeddingsResponse, texts.length);
      if ((res.status === 429 || res.status >= 500) && attempt < retries) {
        await Bun.sleep(200 * 2 ** attempt);
        continue;
      }
      throw new Error(`embeddings endpoint answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    }
  }

  function parse(body: EmbeddingsResponse, expected: number): Float32Array[] {
    const data = body.data;
    if (!Array.isArray(data) || data.length !== expected)
      throw new Error(`embeddings endpoint returned ${data?.length ?? 0} vectors for ${expected} texts`);
    const out: Float32Array[] = new Array(expected);
    data.forEach((d, i) => {
      const index = d.index ?? i;
      if (!Array.isArray(d.embedding) || index < 0 || index >= expected)
        throw new Error("embeddings endpoint returned a malformed vector");
      out[index] = Float32Array.from(d.embedding);
    });
    return out;
  }

  const dimensions = opts.dimensions ?? (await request(["dimension probe"], undefined))[0]!.length;
  return {
    model: opts.model,
    dimensions,
    maxTokens: opts.maxTokens,
    async embed(texts) {
      if (texts.length === 0) return [];
      const vectors = await request(texts, opts.dimensions);
      for (const v of vectors)
        if (v.length !== dimensions)
          throw new Error(`embeddings endpoint returned ${v.length} dimensions, expected ${dimensions}`);
      return vectors;
    },
  };
}
