// Memory for the OpenAI Agents SDK (`@openai/agents`): tools an agent calls to store and find memories, and a
// `Session` that keeps a run's conversation history as a thread. Both are thin layers over the client.
import { tool } from "@openai/agents";
import { z } from "zod";
import type { MemoryServiceClient } from "../client.ts";
import { describeToolError, memoryOperations, TOOL_DESCRIPTIONS, type MemoryToolsOptions } from "./memory-tool-ops.ts";

export type { MemoryToolsOptions, MetadataScope, RecalledMemory } from "./memory-tool-ops.ts";
export { MemoryServiceSession, type MemoryServiceSessionOptions } from "./openai-agents-session.ts";

/**
 * `remember`, `recall` and `getContext` as function tools, for `new Agent({ tools: memoryTools(client) })`. The
 * tools act with the client's credential: give each end user a client made with a token restricted to them, or
 * pass `scope` with a key. Optional inputs are nullable, as the SDK's strict schemas want. A refusal of the
 * service becomes the tool's output: its code and message, so the model does not retry a 403 blindly.
 */
export function memoryTools(client: MemoryServiceClient, options: MemoryToolsOptions = {}) {
  const ops = memoryOperations(client, options);
  const errorFunction = (_context: unknown, error: unknown) => describeToolError(error);
  return [
    tool({
      name: "remember",
      description: TOOL_DESCRIPTIONS.remember,
      parameters: z.object({
        content: z.string().min(1).max(100_000).describe("The memory, as a self-contained statement"),
        nature: z
          .enum(["episodic", "semantic"])
          .nullable()
          .optional()
          .describe("semantic: a lasting fact or preference; episodic (default): something that happened"),
      }),
      execute: (input, _context, details) => ops.remember(input, details?.signal),
      errorFunction,
    }),
    tool({
      name: "recall",
      description: TOOL_DESCRIPTIONS.recall,
      parameters: z.object({
        query: z.string().min(1).describe("What to look for, in plain words"),
        limit: z.number().int().min(1).max(100).nullable().optional().describe("How many memories at most"),
      }),
      execute: (input, _context, details) => ops.recall(input, details?.signal),
      errorFunction,
    }),
    tool({
      name: "getContext",
      description: TOOL_DESCRIPTIONS.getContext,
      parameters: z.object({ query: z.string().min(1).describe("The question the memories should help answer") }),
      execute: (input, _context, details) => ops.getContext(input, details?.signal),
      errorFunction,
    }),
  ];
}
