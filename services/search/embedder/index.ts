import type { Logger } from "../../kit/log";
import type { Embedder } from "./embedder";
import { createBatcher } from "./batcher";
import { cachedEmbedder } from "./cache";
import { createOpenAiEmbedder } from "./openai";
import { createUseLitePool } from "./pool";

export { DEFAULT_MAX_TOKENS, embeddingText, modelIdOf, type Embedder } from "./embedder";
export { chunkChars, embeddingChunks } from "./chunks";

export interface EmbedderConfig {
  EMBEDDINGS_URL?: string;
  EMBEDDINGS_MODEL: string;
  EMBEDDINGS_API_KEY?: string;
  EMBEDDINGS_DIMENSIONS?: number;
  EMBEDDINGS_MAX_TOKENS?: number;
  EMBEDDINGS_BLAS: string;
  EMBEDDINGS_KERNEL?: string;
  /** Copies of the offline model (worker threads). */
  EMBEDDINGS_WORKERS?: number;
  EMBEDDINGS_BATCH: number;
  EMBEDDINGS_CONCURRENCY: number;
  QUERY_CACHE_SIZE: number;
}

/** One model behind three priority lanes (see batcher.ts). */
export interface Embedders {
  /** Search queries: cached (LRU), served first. */
  query: Embedder;
  /** Contents a write is waiting for (`search.index`). */
  write: Embedder;
  /** Contents the event indexer or a rebuild indexes. */
  background: Embedder;
  close(): Promise<void>;
}

/** The offline model unless EMBEDDINGS_URL names an OpenAI-compatible endpoint. */
export async function createEmbedders(config: EmbedderConfig, log: Logger): Promise<Embedders> {
  const started = performance.now();
  const remote = !!config.EMBEDDINGS_URL;
  const workers = remote ? 0 : (config.EMBEDDINGS_WORKERS ?? 1);
  const local = remote
    ? null
    : await createUseLitePool(workers, { blas: config.EMBEDDINGS_BLAS, kernel: config.EMBEDDINGS_KERNEL });
  const base =
    local ??
    (await createOpenAiEmbedder({
      url: config.EMBEDDINGS_URL!,
      model: config.EMBEDDINGS_MODEL,
      apiKey: config.EMBEDDINGS_API_KEY,
      dimensions: config.EMBEDDINGS_DIMENSIONS,
      maxTokens: config.EMBEDDINGS_MAX_TOKENS,
    }));
  const how = local
    ? { blas: local.blas ?? "off (tfjs WASM kernels)", kernel: local.kernel ?? "none (OpenBLAS)", workers }
    : {};
  log.info("embedder ready", {
    model: base.model,
    dimensions: base.dimensions,
    ...how,
    ms: Math.round(performance.now() - started),
  });
  const batcher = createBatcher(base, {
    maxBatch: config.EMBEDDINGS_BATCH,
    concurrency: remote ? config.EMBEDDINGS_CONCURRENCY : workers,
  });
  return {
    query: cachedEmbedder(batcher.lane("query"), config.QUERY_CACHE_SIZE),
    write: batcher.lane("write"),
    background: batcher.lane("background"),
    close: async () => base.close?.(),
  };
}
