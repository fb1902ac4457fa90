// A LangChain.js chat that remembers: its history is a thread in the service (MemoryServiceChatHistory) and each
// answer is grounded in the user's memories (MemoryServiceRetriever).
// Run: MEMORY_SERVICE_URL=… MEMORY_SERVICE_API_KEY=… bun examples/langchain.ts session-1 "Where should I stay?"
// (it uses LangChain's fake echo model, which answers its prompt; pass any chat model to `memoryChat` instead).
import { createClient, type MemoryServiceClient } from "@memory-service/client";
import { MemoryServiceChatHistory, MemoryServiceRetriever } from "@memory-service/client/langchain";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { RunnablePassthrough, RunnableWithMessageHistory } from "@langchain/core/runnables";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { FakeChatModel } from "@langchain/core/utils/testing";

/** A chain answering `{input}` with the session's history and the user's 4 most relevant long-term memories. */
export function memoryChat(client: MemoryServiceClient, model: BaseChatModel, userId: string) {
  const retriever = new MemoryServiceRetriever({
    client,
    k: 4,
    filter: { tier: "long", metadata: { user_id: userId } },
  });
  const prompt = ChatPromptTemplate.fromMessages([
    ["system", "You are a travel assistant. What you know about the user:\n{memories}"],
    new MessagesPlaceholder("history"),
    ["human", "{input}"],
  ]);
  const chain = RunnablePassthrough.assign({
    memories: async ({ input }: { input: string }) =>
      (await retriever.invoke(input)).map((doc) => `- ${doc.pageContent}`).join("\n"),
  })
    .pipe(prompt)
    .pipe(model)
    .pipe(new StringOutputParser());
  return new RunnableWithMessageHistory({
    runnable: chain,
    // Each session is a thread: a root memory with one child per message, tagged with the user's id.
    getMessageHistory: (sessionId) =>
      new MemoryServiceChatHistory({ client, sessionId, metadata: { user_id: userId } }),
    inputMessagesKey: "input",
    historyMessagesKey: "history",
  });
}

if (import.meta.main) {
  const client = createClient({
    baseUrl: process.env.MEMORY_SERVICE_URL ?? "http://127.0.0.1:3000",
    apiKey: process.env.MEMORY_SERVICE_API_KEY!,
  });
  const [sessionId = "session-1", input = "Where should I stay?"] = process.argv.slice(2);
  const chat = memoryChat(client, new FakeChatModel({}), "ann");
  console.log(await chat.invoke({ input }, { configurable: { sessionId } }));
}
