import { beforeAll, describe, expect, test } from "bun:test";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { StringOutputParser } from "@langchain/core/output_parsers";
import type { ChatPromptValue } from "@langchain/core/prompt_values";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import {
  RunnableLambda,
  RunnablePassthrough,
  RunnableSequence,
  RunnableWithMessageHistory,
} from "@langchain/core/runnables";
import { FakeChatModel, FakeListChatModel } from "@langchain/core/utils/testing";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { word } from "../search/search-helpers";
import { buildClient } from "../sdk/sdk-build";

/** The LangChain.js adapters as an application uses them, in real runnables, against the real service. */
let sdk: typeof import("@memory-service/client");
let lc: typeof import("@memory-service/client/langchain");
let baseUrl: string;
let adminKey: string;

beforeAll(async () => {
  await buildClient();
  sdk = await import("@memory-service/client");
  lc = await import("@memory-service/client/langchain");
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  adminKey = stack.adminKey;
}, 120_000);

const serviceClient = async () => sdk.createClient({ baseUrl, apiKey: (await newTenant(baseUrl, adminKey)).key });

describe("MemoryServiceRetriever", () => {
  test("a retrieval chain puts the memories it finds in the model's prompt", async () => {
    const client = await serviceClient();
    const place = word();
    await client.memories.create({ content: `Ann wants a quiet hotel in ${place} by the river`, tier: "long" });
    await client.memories.create({ content: "Bob collects stamps", tier: "long" });
    const retriever = new lc.MemoryServiceRetriever({ client, k: 1 });
    const prompt = ChatPromptTemplate.fromMessages([
      ["system", "Answer from these memories:\n{context}"],
      ["human", "{question}"],
    ]);
    const chain = RunnableSequence.from([
      {
        context: retriever.pipe((docs) => docs.map((d) => d.pageContent).join("\n")),
        question: new RunnablePassthrough(),
      },
      prompt,
      // The fake model answers its prompt's messages: what the chain would have sent a real model.
      new FakeChatModel({}),
      new StringOutputParser(),
    ]);
    const answer = await chain.invoke(`Where in ${place} should Ann stay?`);
    expect(answer).toContain(`Ann wants a quiet hotel in ${place} by the river`);
    expect(answer).not.toContain("stamps");
  });

  test("filters (tags, tier, metadata) narrow the search; scores and ids are in the metadata", async () => {
    const client = await serviceClient();
    const topic = word();
    const tag = await client.tags.create({ name: "travel" });
    const tagged = await client.memories.create({ content: `${topic} trip to Lisbon`, metadata: { user_id: "u1" } });
    await client.memories.attachTags(tagged.id, { tag_ids: [tag.id] });
    const long = await client.memories.create({ content: `${topic} trip to Oslo`, tier: "long" });
    const other = await client.memories.create({ content: `${topic} trip to Rome`, metadata: { user_id: "u2" } });

    const ids = async (filter: import("@memory-service/client/langchain").MemorySearchFilter) =>
      (await new lc.MemoryServiceRetriever({ client, filter, k: 10 }).invoke(`${topic} trip`)).map((d) => d.id);
    expect(await ids({ tags: [tag.id] })).toEqual([tagged.id]);
    expect(await ids({ tier: "long" })).toEqual([long.id]);
    expect(await ids({ metadata: { user_id: "u2" } })).toEqual([other.id]);
    expect((await ids({})).sort()).toEqual([tagged.id, long.id, other.id].sort());

    const [doc] = await new lc.MemoryServiceRetriever({ client, filter: { tags: [tag.id] } }).invoke(`${topic}`);
    expect(doc!.metadata).toMatchObject({ memory_id: tagged.id, user_id: "u1", tags: ["travel"], tier: "medium" });
    expect(doc!.metadata.score).toBeGreaterThan(0);
    expect(doc!.metadata.scores).toHaveProperty("semantic");
  });
});

describe("MemoryServiceChatHistory", () => {
  test("RunnableWithMessageHistory keeps a conversation as a thread the next call reads back", async () => {
    const client = await serviceClient();
    const prompts: BaseMessage[][] = [];
    const prompt = ChatPromptTemplate.fromMessages([
      ["system", "You are a helpful assistant."],
      new MessagesPlaceholder("history"),
      ["human", "{input}"],
    ]);
    const record = RunnableLambda.from((value: ChatPromptValue) => {
      prompts.push(value.toChatMessages());
      return value;
    });
    const model = new FakeListChatModel({ responses: ["Hello Ann!", "Your name is Ann."] });
    const chat = new RunnableWithMessageHistory({
      runnable: prompt.pipe(record).pipe(model),
      getMessageHistory: (sessionId) => new lc.MemoryServiceChatHistory({ client, sessionId }),
      inputMessagesKey: "input",
      historyMessagesKey: "history",
    });
    const config = { configurable: { sessionId: "ann-1" } };
    expect((await chat.invoke({ input: "Hi, I am Ann" }, config)).content).toBe("Hello Ann!");
    expect((await chat.invoke({ input: "What is my name?" }, config)).content).toBe("Your name is Ann.");
    // The second call's prompt held the first exchange, read from the service.
    expect(prompts[1]!.map((m) => `${m.getType()}: ${m.text}`)).toEqual([
      "system: You are a helpful assistant.",
      "human: Hi, I am Ann",
      "ai: Hello Ann!",
      "human: What is my name?",
    ]);

    // In the service: one conversation root, its turns as children in order.
    const [root] = (await client.memories.list({ root: true })).items;
    expect(root).toMatchObject({ content_type: "conversation", external_id: "lc:chat:ann-1" });
    const turns = await client.memories.list({ parent_memory_id: root!.id, sort: "occurred_at", order: "asc" });
    expect(turns.items.map((t) => t.content)).toEqual([
      "Hi, I am Ann",
      "Hello Ann!",
      "What is my name?",
      "Your name is Ann.",
    ]);
    expect(await new lc.MemoryServiceChatHistory({ client, sessionId: "other" }).getMessages()).toEqual([]);
  });

  test("every message type comes back as it went in, in order, and clear empties the session", async () => {
    const client = await serviceClient();
    const history = new lc.MemoryServiceChatHistory({ client, sessionId: "s", metadata: { user_id: "u1" } });
    const toolCall = {
      id: "call_1",
      name: "weather",
      args: { city: "Oslo", days: [1, 2] },
      type: "tool_call" as const,
    };
    const sent = [
      new SystemMessage("Be brief."),
      new HumanMessage("Weather in Oslo?"),
      new AIMessage({ content: "", tool_calls: [toolCall] }),
      new ToolMessage({ content: "Snow, -3°C", tool_call_id: "call_1", name: "weather" }),
      new AIMessage("Snow in Oslo, -3°C."),
    ];
    // One call: every turn is stored in the same millisecond, and still keeps its place.
    await history.addMessages(sent);
    await history.addMessage(new HumanMessage("Thanks"));

    const read = await new lc.MemoryServiceChatHistory({ client, sessionId: "s" }).getMessages();
    expect(read.map((m) => m.getType())).toEqual(["system", "human", "ai", "tool", "ai", "human"]);
    expect(read.map((m) => m.text)).toEqual([...sent.map((m) => m.text), "Thanks"]);
    expect((read[2] as AIMessage).tool_calls).toEqual([toolCall]);
    expect(read[3]).toMatchObject({ tool_call_id: "call_1", name: "weather" });
    const { results } = await client.search({ query: "weather", metadata: { user_id: "u1", lc_type: "ai" } });
    expect(results.map((r) => r.content)).toContain("[tool calls: weather]");

    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    expect((await client.memories.list({})).total).toBe(0);
    await history.addMessage(new HumanMessage("Again"));
    expect((await history.getMessages()).map((m) => m.text)).toEqual(["Again"]);
  });

  test("a large batch sent right after a message comes after it", async () => {
    const client = await serviceClient();
    const history = new lc.MemoryServiceChatHistory({ client, sessionId: "burst" });
    await history.addMessage(new HumanMessage("first"));
    const burst = Array.from({ length: 200 }, (_, i) => new AIMessage(`part ${i}`));
    await history.addMessages(burst);
    const read = await new lc.MemoryServiceChatHistory({ client, sessionId: "burst" }).getMessages();
    expect(read.map((m) => m.text)).toEqual(["first", ...burst.map((m) => m.text)]);
  });

  test("on an existing thread (threadId), clear removes the turns and keeps the thread", async () => {
    const client = await serviceClient();
    const thread = await client.memories.create({ content: "Support chat", content_type: "conversation" });
    await client.memories.create({ content: "Turn written over REST", parent_memory_id: thread.id });
    const history = new lc.MemoryServiceChatHistory({ client, threadId: thread.id });
    await history.addMessages([new AIMessage("How can I help?")]);
    const read = await history.getMessages();
    expect(read.map((m) => [m.getType(), m.text])).toEqual([
      ["human", "Turn written over REST"],
      ["ai", "How can I help?"],
    ]);
    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    expect((await client.memories.get(thread.id)).id).toBe(thread.id);
  });
});

test("the README's example answers from the user's memories and keeps the session", async () => {
  const client = await serviceClient();
  const { memoryChat } = await import("../../clients/typescript/examples/langchain.ts");
  const place = word();
  await client.memories.create({ content: `Ann likes ${place} hostels`, tier: "long", metadata: { user_id: "ann" } });
  await client.memories.create({ content: `Bob likes ${place} castles`, tier: "long", metadata: { user_id: "bob" } });
  const model = new FakeChatModel({});
  const chat = memoryChat(client, model, "ann");
  const config = { configurable: { sessionId: "trip" } };
  // The echo model answers its prompt: the system message with the memories, then the history and the input.
  const first = await chat.invoke({ input: `Where to sleep in ${place}?` }, config);
  expect(first).toContain(`- Ann likes ${place} hostels`);
  expect(first).not.toContain("castles");
  const second = await chat.invoke({ input: "And next?" }, config);
  expect(second).toContain(`Where to sleep in ${place}?\n${first}\nAnd next?`);
});
