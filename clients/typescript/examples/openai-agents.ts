// An OpenAI Agents SDK agent whose conversation history and long-term memories live in the memory service.
// Run: MEMORY_SERVICE_URL=… MEMORY_SERVICE_API_KEY=… OPENAI_API_KEY=… \
//   bun examples/openai-agents.ts "message" [session id]
import { createClient, type MemoryServiceClient } from "@memory-service/client";
import { MemoryServiceSession, memoryTools } from "@memory-service/client/openai-agents";
import { Agent, run, type Model } from "@openai/agents";

/**
 * One turn of a conversation: the session reads the earlier turns from the service and stores this one; the
 * agent may remember facts or recall them across conversations. Answers the reply and the session's id, which
 * continues the conversation later, in this process or another.
 */
export async function chatTurn(memory: MemoryServiceClient, model: Model | string, input: string, sessionId?: string) {
  const agent = new Agent({
    name: "Assistant",
    instructions: "Be brief. Remember lasting facts the user tells you; recall them when they help.",
    model,
    // With a key, `scope` keeps the tools on this user's memories (a restricted token needs none).
    tools: memoryTools(memory, { scope: { user_id: "u_42" } }),
  });
  const session = new MemoryServiceSession({ client: memory, sessionId, metadata: { user_id: "u_42" } });
  const result = await run(agent, input, { session });
  return { reply: result.finalOutput, sessionId: await session.getSessionId() };
}

if (import.meta.main) {
  const memory = createClient({
    baseUrl: process.env.MEMORY_SERVICE_URL ?? "http://localhost:3000",
    apiKey: process.env.MEMORY_SERVICE_API_KEY ?? "",
  });
  const { reply, sessionId } = await chatTurn(memory, "gpt-5-mini", process.argv[2] ?? "Hi!", process.argv[3]);
  console.log(reply, `\n(session ${sessionId})`);
}
