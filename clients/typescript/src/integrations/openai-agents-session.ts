// An OpenAI Agents SDK session whose conversation history is a thread of the service: a root memory, and one
// child per item, in order, which keeps the item's exact JSON (openai-agents-items.ts).
import type { AgentInputItem, Session } from "@openai/agents";
import type { MemoryServiceClient } from "../client.ts";
import type { Memory } from "../types.ts";
import { decodeItem, encodeItem } from "./openai-agents-items.ts";

export interface MemoryServiceSessionOptions {
  client: MemoryServiceClient;
  /**
   * The root memory's id of an earlier session, to go on with it. Absent: the first call that needs one creates
   * a new root; `getSessionId()` answers its id, to keep for later.
   */
  sessionId?: string;
  /** The content of a new root; default "OpenAI Agents session". */
  title?: string;
  /** Set on the root and on every item (a key's way to mark whose conversation it is). */
  metadata?: Record<string, string | number | boolean>;
  /** The tier of the root and its items; default the service's (`medium`). */
  tier?: "short" | "medium" | "long";
}

/** The service's most items per batch and per list page. */
const BATCH_MAX = 500;
const PAGE_MAX = 100;
/** Deletes in flight at once while clearing. */
const DELETE_CONCURRENCY = 4;

/**
 * A `Session` (`run(agent, input, { session })`) kept in the memory service. Items are ordered by their
 * `occurred_at`, which this object sets strictly increasing, so a batch keeps its order; two objects writing the
 * same session at the same instant may interleave, as two writers of any shared history would.
 */
export class MemoryServiceSession implements Session {
  readonly #client: MemoryServiceClient;
  readonly #options: MemoryServiceSessionOptions;
  #rootId: Promise<string> | undefined;
  /** The latest `occurred_at` (ms) of an item this object wrote or read; null until it knows one. */
  #lastOccurredAt: number | null = null;

  constructor(options: MemoryServiceSessionOptions) {
    this.#client = options.client;
    this.#options = options;
    if (options.sessionId) this.#rootId = Promise.resolve(options.sessionId);
  }

  getSessionId(): Promise<string> {
    this.#rootId ??= this.#createRoot().catch((err: unknown) => {
      this.#rootId = undefined;
      throw err;
    });
    return this.#rootId;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit !== undefined && limit <= 0) return [];
    const parent = await this.getSessionId();
    if (limit === undefined) {
      const items: AgentInputItem[] = [];
      const query = { parent_memory_id: parent, sort: "occurred_at", order: "asc", limit: PAGE_MAX } as const;
      for await (const memory of this.#client.memories.iterate(query)) items.push(this.#seen(memory));
      return items;
    }
    // The newest `limit` items, read newest first and answered oldest first.
    const newest: AgentInputItem[] = [];
    const query = {
      parent_memory_id: parent,
      sort: "occurred_at",
      order: "desc",
      limit: Math.min(limit, PAGE_MAX),
    } as const;
    for await (const memory of this.#client.memories.iterate(query)) {
      newest.push(this.#seen(memory));
      if (newest.length === limit) break;
    }
    return newest.reverse();
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length === 0) return;
    const parent = await this.getSessionId();
    if (this.#lastOccurredAt === null) await this.getItems(1);
    for (let start = 0; start < items.length; start += BATCH_MAX) {
      const chunk = items.slice(start, start + BATCH_MAX).map((item) => ({
        ...encodeItem(item, this.#options.metadata),
        content_type: "conversation" as const,
        parent_memory_id: parent,
        occurred_at: this.#nextOccurredAt(),
        ...(this.#options.tier ? { tier: this.#options.tier } : {}),
      }));
      const answer = await this.#client.memories.createBatch(chunk);
      for (const item of answer.items)
        if ("error" in item)
          throw new Error(`MemoryServiceSession: an item was not stored: ${item.error.code}: ${item.error.message}`);
    }
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    const parent = await this.getSessionId();
    const page = await this.#client.memories.list({
      parent_memory_id: parent,
      sort: "occurred_at",
      order: "desc",
      limit: 1,
    });
    const last = page.items[0];
    if (!last) return undefined;
    await this.#client.memories.delete(last.id);
    return decodeItem(last);
  }

  /** Deletes every item; the root stays, so the session keeps its id. */
  async clearSession(): Promise<void> {
    const parent = await this.getSessionId();
    const ids: string[] = [];
    for await (const memory of this.#client.memories.iterate({ parent_memory_id: parent, limit: PAGE_MAX }))
      ids.push(memory.id);
    for (let start = 0; start < ids.length; start += DELETE_CONCURRENCY)
      await Promise.all(ids.slice(start, start + DELETE_CONCURRENCY).map((id) => this.#deleteIfThere(id)));
  }

  async #deleteIfThere(id: string): Promise<void> {
    try {
      await this.#client.memories.delete(id);
    } catch (err) {
      // Another clear or pop got there first: the item is gone either way.
      if ((err as { code?: string }).code !== "NOT_FOUND") throw err;
    }
  }

  async #createRoot(): Promise<string> {
    const root = await this.#client.memories.create({
      content: this.#options.title ?? "OpenAI Agents session",
      content_type: "conversation",
      ...(this.#options.metadata ? { metadata: { ...this.#options.metadata } } : {}),
      ...(this.#options.tier ? { tier: this.#options.tier } : {}),
    });
    this.#lastOccurredAt = 0;
    return root.id;
  }

  /**
   * Now, or 1 ms after the latest item known (read before a first write), so items keep the order they were
   * added in, even when written within one millisecond or by a process whose clock is behind the last writer's.
   */
  #nextOccurredAt(): string {
    this.#lastOccurredAt = Math.max(Date.now(), (this.#lastOccurredAt ?? 0) + 1);
    return new Date(this.#lastOccurredAt).toISOString();
  }

  #seen(memory: Memory): AgentInputItem {
    this.#lastOccurredAt = Math.max(this.#lastOccurredAt ?? 0, Date.parse(memory.occurred_at));
    return decodeItem(memory);
  }
}
