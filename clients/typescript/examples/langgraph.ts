// Long-term memory for a LangGraph agent: a graph whose nodes store what the user says and recall what is
// relevant, through MemoryServiceStore. No model is needed to run it; a real agent would call one in `recall`.
// Run: MEMORY_SERVICE_URL=… MEMORY_SERVICE_API_KEY=… bun examples/langgraph.ts ann "I love sailing" "hobbies?"
import { createClient, type MemoryServiceClient } from "@memory-service/client";
import { MemoryServiceStore } from "@memory-service/client/langgraph";
import { Annotation, type LangGraphRunnableConfig, StateGraph } from "@langchain/langgraph";

const State = Annotation.Root({
  userId: Annotation<string>,
  message: Annotation<string>,
  question: Annotation<string>,
  recalled: Annotation<string[]>,
});

/** A graph that files the user's message under ["users", userId, "memories"], then recalls by meaning. */
export function memoryGraph(client: MemoryServiceClient) {
  // `index.fields`: the part of each value searched by meaning (and shown as the memory's content).
  const store = new MemoryServiceStore({ client, index: { fields: ["text"] } });
  return new StateGraph(State)
    .addNode("remember", async (state: typeof State.State, config: LangGraphRunnableConfig) => {
      await config.store!.put(["users", state.userId, "memories"], crypto.randomUUID(), { text: state.message });
      return {};
    })
    .addNode("recall", async (state: typeof State.State, config: LangGraphRunnableConfig) => {
      const items = await config.store!.search(["users", state.userId], { query: state.question, limit: 3 });
      return { recalled: items.map((item) => `${item.value.text} (score ${item.score?.toFixed(2)})`) };
    })
    .addEdge("__start__", "remember")
    .addEdge("remember", "recall")
    .compile({ store });
}

if (import.meta.main) {
  const client = createClient({
    baseUrl: process.env.MEMORY_SERVICE_URL ?? "http://127.0.0.1:3000",
    apiKey: process.env.MEMORY_SERVICE_API_KEY!,
  });
  const [userId = "ann", message = "I love sailing", question = "What are my hobbies?"] = process.argv.slice(2);
  const { recalled } = await memoryGraph(client).invoke({ userId, message, question, recalled: [] });
  console.log(recalled.join("\n"));
}
