import { Type as T } from "@sinclair/typebox";
import { loadServiceConfig } from "../kit/config";
import { MigrationConfig } from "../data-layout/config";

/** Settings of the search service (and of `reindex`, which builds the same pieces). */
export const SearchConfig = {
  EMBEDDINGS_URL: T.Optional(
    T.String({
      pattern: "^https?://",
      description: "OpenAI-compatible API (…/v1); unset = the offline USE-lite model.",
    }),
  ),
  EMBEDDINGS_MODEL: T.String({
    minLength: 1,
    default: "text-embedding-3-small",
    description: "Model name sent to EMBEDDINGS_URL.",
  }),
  EMBEDDINGS_API_KEY: T.Optional(T.String()),
  EMBEDDINGS_DIMENSIONS: T.Optional(T.Integer({ minimum: 1, maximum: 8192 })),
  EMBEDDINGS_MAX_TOKENS: T.Optional(
    T.Integer({
      minimum: 16,
      maximum: 1_000_000,
      description:
        "How many tokens EMBEDDINGS_MODEL reads (default 512): a longer memory is embedded in overlapping " +
        "chunks of that size, one vector each.",
    }),
  ),
  EMBEDDINGS_BLAS: T.String({
    pattern: "^(auto|off|/.+)$",
    default: "auto",
    description:
      "How the offline model runs: auto = its forward pass on OpenBLAS when a Debian libopenblas0 package " +
      "is installed (~3× faster), off = its graph on tfjs's WASM kernels, or the library's absolute path.",
  }),
  EMBEDDINGS_KERNEL: T.Optional(
    T.String({
      pattern: "^/.+",
      description:
        "The kernel for the offline model's weight products (services/search/embedder/dense.c built as a " +
        "shared library; `npm start` builds it when the CPU has AVX-512, or AVX2 with FMA and F16C). " +
        "Unset, or a CPU with neither: OpenBLAS does them.",
    }),
  ),
  EMBEDDINGS_WORKERS: T.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description: "Copies of the offline model, each in a worker thread (a core) of its own.",
  }),
  EMBEDDINGS_BATCH: T.Integer({ minimum: 1, maximum: 2048, default: 32, description: "Most texts per model call." }),
  EMBEDDINGS_CONCURRENCY: T.Integer({
    minimum: 1,
    maximum: 64,
    default: 4,
    description: "Parallel calls to EMBEDDINGS_URL.",
  }),
  QUERY_CACHE_SIZE: T.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 5000,
    description: "Query embeddings kept (LRU).",
  }),
  SEARCH_REDIS_POOL: T.Integer({
    minimum: 1,
    maximum: 64,
    default: 4,
    description: "Redis connections for VSIM (per shard on a cluster).",
  }),
};

export const loadSearchConfig = () => loadServiceConfig({ ...SearchConfig, ...MigrationConfig });
