// What the memory tools of the agent frameworks (Vercel AI SDK, OpenAI Agents SDK) do, once: each adapter only
// wraps these operations in its framework's tool definition and input schema.
import type { MemoryServiceClient } from "../client.ts";

/** A flat equality filter on top-level metadata keys, as a token's `restrict.metadata` is. */
export type MetadataScope = Record<string, string | number | boolean>;

export interface MemoryToolsOptions {
  /**
   * Keeps the tools on one end user's (or one agent's) memories when the client holds a key: these metadata are
   * set on every memory `remember` stores, and every `recall` and `getContext` matches only memories carrying
   * them. A client made with a restricted token (`tokens.create({ restrict: { metadata } })`) needs none: the
   * service confines it whatever the tools send.
   */
  scope?: MetadataScope;
  /** Set on every memory `remember` stores, besides `scope` (which wins on a shared key). */
  metadata?: Record<string, unknown>;
  /** Tag ids attached to every memory `remember` stores. */
  tagIds?: string[];
  /** The tier of the memories `remember` stores; default the service's (`medium`). */
  tier?: "short" | "medium" | "long";
  /** Memories `recall` answers when the model asks for no number; default 5. */
  recallLimit?: number;
  /** The most memories one `recall` may answer, whatever the model asks (1–100); default 20. */
  maxRecallLimit?: number;
  /** The token budget of `getContext` (the service counts with o200k_base; at most 32,000); default 1,000. */
  contextMaxTokens?: number;
}

export interface RememberInput {
  content: string;
  nature?: "episodic" | "semantic" | null;
}

export interface RecallInput {
  query: string;
  limit?: number | null;
}

export interface ContextInput {
  query: string;
}

/** What the model reads back: the memory's id and text, and when it happened; no internal fields. */
export interface RecalledMemory {
  id: string;
  content: string;
  score: number;
  occurred_at: string;
}

export const TOOL_DESCRIPTIONS = {
  remember:
    "Store a memory for later conversations: a fact, a preference, a decision or an event worth keeping. " +
    "One self-contained statement per call.",
  recall: "Search the stored memories by meaning and answer the closest ones, best first, with their scores.",
  getContext:
    "Answer the stored memories relevant to a question, assembled as one text (grouped by conversation, " +
    "dated) that fits a token budget. Use it before answering a question about the user or earlier work.",
} as const;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.trunc(value)));

export function memoryOperations(client: MemoryServiceClient, options: MemoryToolsOptions = {}) {
  const maxRecall = clamp(options.maxRecallLimit ?? 20, 1, 100);
  const defaultRecall = clamp(options.recallLimit ?? 5, 1, maxRecall);
  const scope = options.scope && Object.keys(options.scope).length > 0 ? options.scope : undefined;

  return {
    async remember(input: RememberInput, signal?: AbortSignal) {
      const memory = await client.memories.create(
        {
          content: input.content,
          ...(input.nature ? { memory_nature: input.nature } : {}),
          ...(options.tier ? { tier: options.tier } : {}),
          ...(options.metadata || scope ? { metadata: { ...options.metadata, ...scope } } : {}),
        },
        { signal },
      );
      if (options.tagIds?.length) await client.memories.attachTags(memory.id, { tag_ids: options.tagIds }, { signal });
      return { id: memory.id, stored: true as const };
    },

    async recall(input: RecallInput, signal?: AbortSignal): Promise<{ memories: RecalledMemory[] }> {
      const limit = input.limit == null ? defaultRecall : clamp(input.limit, 1, maxRecall);
      const { results } = await client.search(
        { query: input.query, limit, ...(scope ? { metadata: scope } : {}) },
        {
          signal,
        },
      );
      return {
        memories: results.map((r) => ({
          id: r.id,
          content: r.content,
          score: Math.round(r.score * 1000) / 1000,
          occurred_at: r.occurred_at,
        })),
      };
    },

    async getContext(input: ContextInput, signal?: AbortSignal) {
      const answer = await client.context(
        {
          query: input.query,
          max_tokens: clamp(options.contextMaxTokens ?? 1000, 1, 32_000),
          ...(scope ? { metadata: scope } : {}),
        },
        { signal },
      );
      return { context: answer.context, truncated: answer.truncated, memories: answer.memories.length };
    },
  };
}

/**
 * What the model reads when a tool call fails: the service's code and message (a 403 or a validation error is
 * not worth repeating as is), or the failure's message.
 */
export function describeToolError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  return typeof code === "string"
    ? `The memory service refused the call: ${code}: ${text}`
    : `The call failed: ${text}`;
}
