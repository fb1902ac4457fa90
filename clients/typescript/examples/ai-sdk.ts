// Memory for a Vercel AI SDK app: the user's memories ahead of the prompt, and tools to store and find more.
// Run: MEMORY_SERVICE_URL=… MEMORY_SERVICE_API_KEY=… AI_GATEWAY_API_KEY=… bun examples/ai-sdk.ts "question"
// (a model id string goes through the AI SDK's gateway; pass any other provider's model to `answer` instead).
import { createClient, type MemoryServiceClient } from "@memory-service/client";
import { memoryTools, withMemoryContext } from "@memory-service/client/ai-sdk";
import { generateText, stepCountIs, type LanguageModel } from "ai";

/** Answers one user's question with their memories in view; the model may store or look up more. */
export async function answer(memory: MemoryServiceClient, model: LanguageModel, userId: string, question: string) {
  // With a key, `scope` keeps every read and write on this user's memories; a client made with a token
  // restricted to the user (tokens.create({ restrict: { metadata: { user_id } } })) would need none.
  const scope = { user_id: userId };
  const { instructions } = await withMemoryContext({
    client: memory,
    query: question,
    maxTokens: 800,
    scope,
    instructions: "You are a travel assistant. Remember what the user tells you about themselves.",
  });
  return generateText({
    model,
    instructions,
    prompt: question,
    tools: memoryTools(memory, { scope, tier: "long", recallLimit: 5 }),
    stopWhen: stepCountIs(5),
  });
}

if (import.meta.main) {
  const memory = createClient({
    baseUrl: process.env.MEMORY_SERVICE_URL ?? "http://localhost:3000",
    apiKey: process.env.MEMORY_SERVICE_API_KEY ?? "",
  });
  const result = await answer(memory, "openai/gpt-5-mini", "u_42", process.argv[2] ?? "I prefer aisle seats.");
  console.log(result.text);
}
