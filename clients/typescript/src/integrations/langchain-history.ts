import { BaseListChatMessageHistory } from "@langchain/core/chat_history";
import {
  type BaseMessage,
  HumanMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
} from "@langchain/core/messages";
import type { MemoryServiceClient } from "../client.ts";
import { MemoryServiceError } from "../errors.ts";
import type { Memory } from "../types.ts";

export interface MemoryServiceChatHistoryOptions {
  client: MemoryServiceClient;
  /** The conversation's name: its root memory has the external_id "lc:chat:<sessionId>". */
  sessionId?: string;
  /** Or the id of an existing root memory (a browser token, which cannot set external_id, uses this). */
  threadId?: string;
  /** Added to the metadata of the root and of every turn, e.g. {user_id: "u42"}, to filter searches by. */
  metadata?: Record<string, unknown>;
}

/** The service's largest batch of memories in one call. */
const BATCH = 500;

/**
 * A LangChain chat message history kept as a thread: one root memory (a conversation, tier long) and a child
 * memory per message (tier short), ordered by occurred_at, which this class sets strictly increasing. Each
 * turn's content is the message's text, so search and context find it; its metadata keeps the whole message
 * (`lc_type` and `lc_message`, LangChain's stored form as JSON text), so tool calls, tool call ids and names
 * come back as they went in.
 */
export class MemoryServiceChatHistory extends BaseListChatMessageHistory {
  lc_namespace = ["memory_service", "chat_history"];

  readonly client: MemoryServiceClient;
  readonly sessionId: string | undefined;
  private threadId: string | undefined;
  private readonly metadata: Record<string, unknown>;
  /** The last occurred_at given (ms): each turn gets a later one, so the thread's order is the order of calls. */
  private last = 0;

  constructor(options: MemoryServiceChatHistoryOptions) {
    super();
    if (!options.sessionId && !options.threadId) throw new TypeError("MemoryServiceChatHistory: sessionId or threadId");
    this.client = options.client;
    this.sessionId = options.sessionId;
    this.threadId = options.threadId;
    this.metadata = options.metadata ?? {};
  }

  private get externalId() {
    return `lc:chat:${this.sessionId}`;
  }

  /** The root memory's id; with `create`, a session's root is made on first use (a concurrent maker may win). */
  private async root(create: boolean): Promise<string | null> {
    if (this.threadId) return this.threadId;
    const find = async () => (await this.client.memories.list({ external_id: this.externalId, limit: 1 })).items[0];
    let root = await find();
    if (!root && create) {
      try {
        root = await this.client.memories.create({
          content: `Chat session ${this.sessionId}`,
          content_type: "conversation",
          tier: "long",
          external_id: this.externalId,
          metadata: { ...this.metadata, lc_session_id: this.sessionId },
        });
      } catch (err) {
        if (!(err instanceof MemoryServiceError && err.details?.constraint === "unique")) throw err;
        root = await find();
      }
    }
    this.threadId = root?.id;
    return root?.id ?? null;
  }

  async getMessages(): Promise<BaseMessage[]> {
    const root = await this.root(false);
    if (!root) return [];
    const turns: Memory[] = [];
    for await (const turn of this.client.memories.iterate({
      parent_memory_id: root,
      sort: "occurred_at",
      order: "asc",
    }))
      turns.push(turn);
    return turns.map(toMessage);
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  async addMessages(messages: BaseMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const root = (await this.root(true)) as string;
    await this.afterLastTurn(root);
    const stored = mapChatMessagesToStoredMessages(messages);
    const items = messages.map((message, i) => ({
      content: textOf(message),
      content_type: "conversation" as const,
      tier: "short" as const,
      parent_memory_id: root,
      occurred_at: this.tick(),
      metadata: { ...this.metadata, lc_type: stored[i]!.type, lc_message: JSON.stringify(stored[i]!.data) },
    }));
    for (let i = 0; i < items.length; i += BATCH) {
      const { items: answers } = await this.client.memories.createBatch(items.slice(i, i + BATCH));
      for (const answer of answers)
        if ("error" in answer && answer.error) {
          const { code, message, details } = answer.error as { code: string; message: string; details?: {} };
          throw new MemoryServiceError(400, code, message, details, undefined);
        }
    }
  }

  /** Deletes the conversation: a session's root with its turns (the next message starts it again), else the turns. */
  async clear(): Promise<void> {
    const root = await this.root(false);
    if (!root) return;
    if (this.sessionId) {
      await this.client.memories.delete(root, { cascade: true }).catch(ignoreNotFound);
      this.threadId = undefined;
      this.last = 0;
      return;
    }
    const turns: string[] = [];
    for await (const turn of this.client.memories.iterate({ parent_memory_id: root })) turns.push(turn.id);
    for (const id of turns) await this.client.memories.delete(id).catch(ignoreNotFound);
  }

  /**
   * Stamps the next turns after the thread's last one. The service stamps a batch's items 1 ms apart ending at
   * the call's time, so without this a batch sent right after another would interleave with it; and another
   * process (or a clock behind) may have stamped the last turn ahead of this clock.
   */
  private async afterLastTurn(root: string) {
    const page = await this.client.memories.list({
      parent_memory_id: root,
      sort: "occurred_at",
      order: "desc",
      limit: 1,
    });
    if (page.items[0]) this.last = Math.max(this.last, Date.parse(page.items[0].occurred_at));
  }

  private tick() {
    this.last = Math.max(Date.now(), this.last + 1);
    return new Date(this.last).toISOString();
  }
}

/** A message's text for search; a memory's content cannot be empty (e.g. an AI message that only calls tools). */
function textOf(message: BaseMessage): string {
  const text = message.text;
  if (text.trim()) return text;
  const calls = (message as { tool_calls?: { name: string }[] }).tool_calls ?? [];
  if (calls.length) return `[tool calls: ${calls.map((c) => c.name).join(", ")}]`;
  return `[${message.getType()} message]`;
}

/** A turn back as its message; a turn another client wrote (no stored message) reads as a human message. */
function toMessage(turn: Memory): BaseMessage {
  const { lc_type, lc_message } = turn.metadata;
  if (typeof lc_type !== "string" || typeof lc_message !== "string") return new HumanMessage(turn.content);
  return mapStoredMessagesToChatMessages([{ type: lc_type, data: JSON.parse(lc_message) }])[0]!;
}

function ignoreNotFound(err: unknown) {
  if (!(err instanceof MemoryServiceError && err.code === "NOT_FOUND")) throw err;
}
