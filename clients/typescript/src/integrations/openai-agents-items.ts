// How an Agents SDK history item is kept in a memory: readable content, so search and /v1/context show the
// conversation as text, and the item's exact JSON in metadata, so the session answers what was added.
import type { AgentInputItem } from "@openai/agents";
import type { Memory } from "../types.ts";

/** The service's limits: content length in UTF-16 code units, serialized metadata in UTF-8 bytes. */
const CONTENT_MAX = 100_000;
const METADATA_MAX_BYTES = 16_384;

/** The metadata key holding the item's JSON; absent when the item was too large, and the content is its JSON. */
export const ITEM_KEY = "agents_item_json";

export interface StoredItem {
  content: string;
  metadata: Record<string, unknown>;
}

export function encodeItem(item: AgentInputItem, metadata: Record<string, unknown> = {}): StoredItem {
  const json = JSON.stringify(item);
  const marked = { ...metadata, agents_item: itemKind(item) };
  const withJson = { ...marked, [ITEM_KEY]: json };
  if (new TextEncoder().encode(JSON.stringify(withJson)).length <= METADATA_MAX_BYTES)
    return { content: readable(item).slice(0, CONTENT_MAX) || `[${itemKind(item)}]`, metadata: withJson };
  // Too large for metadata: the JSON is the content (the service refuses one past its content limit).
  return { content: json, metadata: marked };
}

export function decodeItem(memory: Memory): AgentInputItem {
  const json = memory.metadata[ITEM_KEY];
  return JSON.parse(typeof json === "string" ? json : memory.content) as AgentInputItem;
}

/** `message` items by role (`user`, `assistant`, `system`), others by type (`function_call`, `reasoning`…). */
function itemKind(item: AgentInputItem): string {
  const { type, role } = item as { type?: string; role?: string };
  return type === undefined || type === "message" ? (role ?? "message") : type;
}

/** The text parts of a content field: a string, or parts with `text` (input_text, output_text, refusal…). */
function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { text?: unknown; refusal?: unknown; type?: unknown }) =>
      typeof part.text === "string" ? part.text : typeof part.refusal === "string" ? part.refusal : `[${part.type}]`,
    )
    .join("\n");
}

/** One line a person (or a model reading /v1/context) understands: who said what, which tool ran. */
function readable(item: AgentInputItem): string {
  const i = item as { type?: string; role?: string; content?: unknown; name?: string; arguments?: string };
  const kind = itemKind(item);
  switch (i.type ?? "message") {
    case "message":
      return `${kind}: ${text(i.content)}`;
    case "function_call":
      return `tool call ${i.name}(${i.arguments ?? ""})`;
    case "function_call_result": {
      const output = (item as { output?: unknown }).output;
      const shown = typeof output === "string" ? output : text(Array.isArray(output) ? output : [output]);
      return `tool result ${i.name}: ${shown}`;
    }
    case "reasoning":
      return `reasoning: ${text(i.content)}`;
    default:
      return `[${kind}${i.name ? ` ${i.name}` : ""}]`;
  }
}
