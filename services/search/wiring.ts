import type { RedisClient } from "../kit/redis-functions";
import type { Bus } from "../kit/bus";
import type { Logger } from "../kit/log";
import { connectRedis, redisReady } from "../kit/connect";
import { createEmbedders, modelIdOf, type EmbedderConfig, type Embedders } from "./embedder";
import { createSearchStore, type SearchStore } from "./store";
import { createApplier, createRebuilder, type Apply, type Rebuilder } from "./indexer";
import { createMemoryReader, type MemoryReader } from "./memories-client";
import { createRetriever, type Retrieve } from "./retrieval";
import { createLayoutStore } from "../data-layout/store";
import { createLayoutView, type LayoutView } from "../data-layout/layout-view";

export interface SearchParts {
  embedders: Embedders;
  store: SearchStore;
  apply: Apply;
  rebuilder: Rebuilder;
  reader: MemoryReader;
  retrieve: Retrieve;
  modelId: string;
  pool: RedisClient[];
  /** The data layout the writers write (data-layout/): chunked vectors from layout 3 on. */
  layout: LayoutView;
}

/** Builds the service's pieces; shared by main.ts and the `reindex` script so both index alike. */
export async function buildSearch(deps: {
  config: EmbedderConfig & { REDIS_URL: string; REDIS_CLUSTER: boolean; SEARCH_REDIS_POOL: number };
  redis: RedisClient;
  bus: Bus;
  log: Logger;
}): Promise<SearchParts> {
  const { config, redis, bus, log } = deps;
  const embedders = await createEmbedders(config, log);
  const modelId = modelIdOf(embedders.write);
  const pool = Array.from({ length: config.SEARCH_REDIS_POOL }, (_, i) =>
    connectRedis(config.REDIS_URL, log, `search-vsim-${i}`, { cluster: config.REDIS_CLUSTER }),
  );
  await Promise.all(pool.map((c) => redisReady(c, log)));
  const store = createSearchStore(redis, pool);
  const layoutStore = createLayoutStore(redis);
  const layout = await createLayoutView(layoutStore, log);
  const chunked = () => layout.writes(3);
  const apply = createApplier(store, embedders, modelId, chunked);
  const reader = createMemoryReader(bus);
  const dimensions = embedders.write.dimensions;
  const rebuilder = createRebuilder({ store, apply, reader, modelId, dimensions, log, chunked });
  const retrieve = createRetriever({ reads: store.reads, embedder: embedders.query, modelId });
  return { embedders, store, apply, rebuilder, reader, retrieve, modelId, pool, layout };
}

export async function closeSearch(parts: SearchParts): Promise<void> {
  parts.layout.stop();
  await parts.embedders.close();
  await Promise.all(parts.pool.map((c) => c.quit().catch(() => c.disconnect())));
}
