import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import type { MemoryServiceClient } from "../client.ts";
import type { BodyOf } from "../types.ts";

export { MemoryServiceChatHistory, type MemoryServiceChatHistoryOptions } from "./langchain-history.ts";

/** Search's filters (`tags` are tag ids, `metadata` equality on top-level keys, `tier`, `threshold`, dates...). */
export type MemorySearchFilter = Omit<BodyOf<"/v1/search", "post">, "query" | "limit">;

export interface MemoryServiceRetrieverInput extends BaseRetrieverInput {
  client: MemoryServiceClient;
  /** How many memories to retrieve (1 to 100). Default 4. */
  k?: number;
  /** Applied to every search this retriever runs. */
  filter?: MemorySearchFilter;
}

/** What a retrieved memory's Document carries besides its content (the memory's own metadata comes first). */
export interface MemoryDocumentMetadata extends Record<string, unknown> {
  memory_id: string;
  /** The service's relevance, 0..1, and its parts (docs/search.md). */
  score: number;
  scores: Record<string, number | null>;
  tier: string;
  content_type: string;
  /** Tag names. */
  tags: string[];
  parent_memory_id: string | null;
  created_at: string;
  occurred_at: string;
}

/**
 * A LangChain retriever over the service's hybrid search: `retriever.invoke(question)` answers the best `k`
 * memories as Documents (`id` the memory's id, `metadata.score` its relevance), in any runnable chain.
 */
export class MemoryServiceRetriever extends BaseRetriever<MemoryDocumentMetadata> {
  static lc_name() {
    return "MemoryServiceRetriever";
  }
  lc_namespace = ["memory_service", "retrievers"];

  readonly client: MemoryServiceClient;
  readonly k: number;
  readonly filter: MemorySearchFilter;

  constructor({ client, k, filter, ...fields }: MemoryServiceRetrieverInput) {
    // The client stays out of the serialisable fields: it holds the API key.
    super(fields);
    this.client = client;
    this.k = k ?? 4;
    this.filter = filter ?? {};
  }

  async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun) {
    const { results } = await this.client.search({ ...this.filter, query, limit: this.k });
    return results.map(
      (r) =>
        new Document<MemoryDocumentMetadata>({
          id: r.id,
          pageContent: r.content,
          metadata: {
            ...r.metadata,
            memory_id: r.id,
            score: r.score,
            scores: r.scores,
            tier: r.tier,
            content_type: r.content_type,
            tags: r.tags.map((t) => t.name),
            parent_memory_id: r.parent_memory_id,
            created_at: r.created_at,
            occurred_at: r.occurred_at,
          },
        }),
    );
  }
}
