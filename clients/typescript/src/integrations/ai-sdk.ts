// Memory for the Vercel AI SDK (`ai`, v7): tools a model calls to store and find memories, and the service's
// token-budgeted context as instructions ahead of a prompt. Both are thin layers over the client.
import { tool, type ModelMessage, type SystemModelMessage } from "ai";
import { z } from "zod";
import type { MemoryServiceClient } from "../client.ts";
import type { Context } from "../types.ts";
import { memoryOperations, TOOL_DESCRIPTIONS, type MemoryToolsOptions, type MetadataScope } from "./memory-tool-ops.ts";

export type { MemoryToolsOptions, MetadataScope, RecalledMemory } from "./memory-tool-ops.ts";

/**
 * `remember`, `recall` and `getContext` as AI SDK tools, for `generateText({ tools })` / `streamText`. The tools
 * act with the client's credential: give each end user a client made with a token restricted to them, or pass
 * `scope` with a key. A refusal of the service (`MemoryServiceError`) fails the tool call, and the SDK hands the
 * error to the model as the tool's result.
 */
export function memoryTools(client: MemoryServiceClient, options: MemoryToolsOptions = {}) {
  const ops = memoryOperations(client, options);
  return {
    remember: tool({
      description: TOOL_DESCRIPTIONS.remember,
      inputSchema: z.object({
        content: z.string().min(1).max(100_000).describe("The memory, as a self-contained statement"),
        nature: z
          .enum(["episodic", "semantic"])
          .optional()
          .describe("semantic: a lasting fact or preference; episodic (default): something that happened"),
      }),
      execute: (input, { abortSignal }) => ops.remember(input, abortSignal),
    }),
    recall: tool({
      description: TOOL_DESCRIPTIONS.recall,
      inputSchema: z.object({
        query: z.string().min(1).describe("What to look for, in plain words"),
        limit: z.number().int().min(1).max(100).optional().describe("How many memories at most"),
      }),
      execute: (input, { abortSignal }) => ops.recall(input, abortSignal),
    }),
    getContext: tool({
      description: TOOL_DESCRIPTIONS.getContext,
      inputSchema: z.object({ query: z.string().min(1).describe("The question the memories should help answer") }),
      execute: (input, { abortSignal }) => ops.getContext(input, abortSignal),
    }),
  };
}

export interface MemoryContextOptions {
  client: MemoryServiceClient;
  /** What to find memories for; default the text of the last user message of `messages`. */
  query?: string;
  messages?: ModelMessage[];
  /** The budget of the memories' text, in o200k_base tokens (at most 32,000); default 1,000. */
  maxTokens?: number;
  /** As `memoryTools`' `scope`: only memories carrying these metadata. */
  scope?: MetadataScope;
  /** The application's own instructions, kept first. */
  instructions?: string | SystemModelMessage | SystemModelMessage[];
  /** Introduces the memories to the model; default a sentence saying what they are. */
  preamble?: string;
  signal?: AbortSignal;
}

export interface MemoryContext {
  /** For `generateText({ instructions })`: the application's instructions, then the memories when any matched. */
  instructions: SystemModelMessage[];
  /** The service's answer: the assembled text, its memories, its token count, what did not fit. */
  context: Context;
}

const DEFAULT_PREAMBLE = "Memories from earlier conversations that may be relevant (oldest first in each thread):";

/**
 * Fetches `/v1/context` for the query and answers it as a system message after the application's instructions,
 * to pass as `instructions` (AI SDK v7 refuses system messages inside `messages` by default). The memories' text
 * stays within `maxTokens`; the preamble adds its own few tokens.
 */
export async function withMemoryContext(options: MemoryContextOptions): Promise<MemoryContext> {
  const query = options.query ?? lastUserText(options.messages ?? []);
  if (!query) throw new TypeError("withMemoryContext: give a query, or messages ending with a user message");
  const context = await options.client.context(
    {
      query,
      max_tokens: options.maxTokens ?? 1000,
      ...(options.scope && Object.keys(options.scope).length > 0 ? { metadata: options.scope } : {}),
    },
    { signal: options.signal },
  );
  const own = options.instructions;
  const instructions: SystemModelMessage[] =
    own === undefined ? [] : typeof own === "string" ? [{ role: "system", content: own }] : [own].flat();
  if (context.memories.length > 0)
    instructions.push({ role: "system", content: `${options.preamble ?? DEFAULT_PREAMBLE}\n\n${context.context}` });
  return { instructions, context };
}

/** The text parts of the last user message, joined. */
function lastUserText(messages: ModelMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === "user");
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return last.content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n")
    .trim();
}
