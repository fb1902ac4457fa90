import { beforeAll, describe, expect, test } from "bun:test";
import { newTenant } from "../api";
import { eventually, word } from "../search/search-helpers";
import { buildClient } from "../sdk/sdk-build";
// The AI SDK the client's peer dependency names (v7) is installed under the client's folder: the repository's
// own `ai` is v6, the API reference page's. The test drives the same copy the adapter imports.
import { generateText, stepCountIs } from "../../clients/typescript/node_modules/ai/dist/index.js";
import { MockLanguageModelV4 } from "../../clients/typescript/node_modules/ai/dist/test/index.js";
import type * as Sdk from "../../clients/typescript/src/index.ts";
import type * as AiSdk from "../../clients/typescript/src/integrations/ai-sdk.ts";
import type * as Example from "../../clients/typescript/examples/ai-sdk.ts";
import { testStack } from "../harness";

type Client = Sdk.MemoryServiceClient;
type ModelCall = Parameters<MockLanguageModelV4["doGenerate"]>[0];
type ModelAnswer = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;

/** The package as an application imports it, built first. */
let sdk: typeof Sdk;
let aiSdk: typeof AiSdk;
let example: typeof Example;
let baseUrl: string;
let adminKey: string;

beforeAll(async () => {
  await buildClient();
  sdk = await import("@memory-service/client");
  aiSdk = await import("@memory-service/client/ai-sdk");
  example = await import("../../clients/typescript/examples/ai-sdk.ts");
  ({ baseUrl, adminKey } = await testStack());
}, 120_000);

const newClient = async (): Promise<Client> =>
  sdk.createClient({ baseUrl, apiKey: (await newTenant(baseUrl, adminKey)).key });

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
let callCount = 0;
const toolCalls = (...calls: [name: string, input: object][]): ModelAnswer => ({
  content: calls.map(([toolName, input]) => ({
    type: "tool-call" as const,
    toolCallId: `call-${++callCount}`,
    toolName,
    input: JSON.stringify(input),
  })),
  finishReason: { unified: "tool-calls", raw: undefined },
  usage,
  warnings: [],
});
const text = (value: string): ModelAnswer => ({
  content: [{ type: "text", text: value }],
  finishReason: { unified: "stop", raw: undefined },
  usage,
  warnings: [],
});

/** The AI SDK's mock model, answering each call with the next step of a script. */
function scriptedModel(...steps: ((call: ModelCall) => ModelAnswer | Promise<ModelAnswer>)[]) {
  let next = 0;
  return new MockLanguageModelV4({
    doGenerate: async (call) => {
      const step = steps[next++];
      if (!step) throw new Error(`the model was called ${next} times; the script has ${steps.length} steps`);
      return step(call);
    },
  });
}

/** What the model was shown as system messages in a call. */
const systemTexts = (call: ModelCall) => call.prompt.flatMap((m) => (m.role === "system" ? [m.content] : []));

/** The id `remember` answered, from the tool result the model is shown in its next call. */
function rememberedId(call: ModelCall): string {
  for (const message of call.prompt)
    if (message.role === "tool")
      for (const part of message.content)
        if (part.type === "tool-result" && part.toolName === "remember" && part.output.type === "json")
          return (part.output.value as { id: string }).id;
  throw new Error("the model was shown no result of remember");
}

/** Waits until search finds the memory, as the index follows writes asynchronously. */
const searchable = (client: Client, query: string, id: string) =>
  eventually(async () => {
    const { results } = await client.search({ query, limit: 20 });
    expect(results.map((r) => r.id)).toContain(id);
  });

describe("memory tools for the Vercel AI SDK, driven by generateText and its mock model", () => {
  test("the model calls remember, then recall: the memory is stored for the user and found again", async () => {
    const client = await newClient();
    const fact = `The user prefers aisle seats on ${word()} flights`;
    let storedId = "";
    const model = scriptedModel(
      () => toolCalls(["remember", { content: fact, nature: "semantic" }]),
      async (call) => {
        storedId = rememberedId(call);
        await searchable(client, fact, storedId);
        return toolCalls(["recall", { query: fact, limit: 3 }]);
      },
      () => text("Noted: aisle seats."),
    );

    const result = await example.answer(client, model, "u_1", "Please remember that I like aisle seats.");

    expect(result.text).toBe("Noted: aisle seats.");
    const [remembered, recalled] = result.steps.slice(0, 2).map((s) => s.toolResults[0]);
    expect(remembered).toMatchObject({ toolName: "remember", output: { id: storedId, stored: true } });
    const stored = await client.memories.get(storedId);
    expect(stored).toMatchObject({
      content: fact,
      memory_nature: "semantic",
      tier: "long",
      metadata: { user_id: "u_1" },
    });
    expect(recalled?.toolName).toBe("recall");
    const memories = (recalled?.output as { memories: AiSdk.RecalledMemory[] }).memories;
    expect(memories[0]).toMatchObject({ id: storedId, content: fact, occurred_at: stored.occurred_at });
    expect(memories[0]?.score).toBeGreaterThan(0);
    expect(memories.length).toBeLessThanOrEqual(3);
  }, 60_000);

  test("withMemoryContext puts the user's memories ahead of the prompt, within the budget, no one else's", async () => {
    const client = await newClient();
    const topic = word();
    const mine = await client.memories.create({
      content: `I like ${topic} window seats`,
      metadata: { user_id: "u_1" },
    });
    const theirs = await client.memories.create({ content: `I hate ${topic} seats`, metadata: { user_id: "u_2" } });
    await searchable(client, topic, mine.id);
    await searchable(client, topic, theirs.id);
    const model = scriptedModel(() => text("You like window seats."));

    await example.answer(client, model, "u_1", `Which ${topic} seats do I like?`);

    const shown = systemTexts(model.doGenerateCalls[0] as ModelCall);
    expect(shown).toHaveLength(2);
    expect(shown[0]).toContain("travel assistant");
    expect(shown[1]).toContain(`I like ${topic} window seats`);
    expect(shown[1]).not.toContain("hate");

    const small = await aiSdk.withMemoryContext({ client, query: topic, maxTokens: 3 });
    expect(small.context.token_count).toBeLessThanOrEqual(3);
    expect(small.context.truncated).toBe(true);
    // The query may come from the conversation: its last user message.
    const fromMessages = await aiSdk.withMemoryContext({
      client,
      messages: [
        { role: "user", content: "hello" },
        { role: "assistant", content: "hi" },
        { role: "user", content: [{ type: "text", text: `my ${topic} seats` }] },
      ],
      scope: { user_id: "u_2" },
    });
    expect(fromMessages.instructions).toHaveLength(1);
    expect(fromMessages.instructions[0]?.content).toContain(`I hate ${topic} seats`);
    expect(fromMessages.context.memories.map((m) => m.id)).toEqual([theirs.id]);
    // Nothing found: no memory message at all.
    const none = await aiSdk.withMemoryContext({ client, query: topic, scope: { user_id: "u_3" }, instructions: "Hi" });
    expect(none.instructions).toEqual([{ role: "system", content: "Hi" }]);
  }, 60_000);

  test("options: default tags and metadata on every memory, a cap on recall, parallel calls", async () => {
    const client = await newClient();
    const tag = await client.tags.create({ name: `chat-${word()}` });
    const tools = aiSdk.memoryTools(client, {
      tagIds: [tag.id],
      metadata: { source: "chat", user_id: "spoofed" },
      scope: { user_id: "u_7" },
      maxRecallLimit: 1,
    });
    const topic = word();
    const model = scriptedModel(
      () => toolCalls(["remember", { content: `${topic} one` }], ["remember", { content: `${topic} two` }]),
      async () => {
        await eventually(async () => expect((await client.search({ query: topic })).results).toHaveLength(2));
        return toolCalls(["recall", { query: topic, limit: 50 }]);
      },
      () => text("done"),
    );

    const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(5) });

    const ids = result.steps[0]?.toolResults.map((r) => (r.output as { id: string }).id) ?? [];
    expect(ids).toHaveLength(2);
    for (const id of ids)
      expect(await client.memories.get(id)).toMatchObject({
        metadata: { source: "chat", user_id: "u_7" },
        tags: [{ id: tag.id }],
      });
    const recalled = result.steps[1]?.toolResults[0]?.output as { memories: unknown[] };
    expect(recalled.memories).toHaveLength(1);
  }, 60_000);

  test("with a token restricted to one user, the tools see and write that user's memories alone", async () => {
    const tenant = await newTenant(baseUrl, adminKey);
    const backend = sdk.createClient({ baseUrl, apiKey: tenant.key });
    const topic = word();
    const other = await backend.memories.create({ content: `${topic} of user 2`, metadata: { user_id: "u_2" } });
    const { token } = await backend.tokens.create({
      scopes: ["memories:read", "memories:write", "search:read"],
      restrict: { metadata: { user_id: "u_1" } },
      ttl_seconds: 300,
    });
    const browser = sdk.createClient({ baseUrl, apiKey: token });
    let storedId = "";
    const model = scriptedModel(
      () => toolCalls(["remember", { content: `${topic} of user 1` }]),
      async (call) => {
        storedId = rememberedId(call);
        await searchable(backend, topic, storedId);
        await searchable(backend, topic, other.id);
        return toolCalls(["recall", { query: topic }]);
      },
      () => text("ok"),
    );

    const result = await generateText({
      model,
      tools: aiSdk.memoryTools(browser),
      prompt: "go",
      stopWhen: stepCountIs(5),
    });

    expect((await backend.memories.get(storedId)).metadata).toEqual({ user_id: "u_1" });
    const recalled = result.steps[1]?.toolResults[0]?.output as { memories: { id: string }[] };
    expect(recalled.memories.map((m) => m.id)).toEqual([storedId]);
  }, 60_000);

  test("a refusal of the service reaches the model as the tool's error, and the run goes on", async () => {
    const tenant = await newTenant(baseUrl, adminKey, { scopes: ["memories:read", "search:read"] });
    const readOnly = sdk.createClient({ baseUrl, apiKey: tenant.key });
    const model = scriptedModel(
      () => toolCalls(["remember", { content: "anything" }]),
      () => text("I could not store that."),
    );

    const result = await generateText({
      model,
      tools: aiSdk.memoryTools(readOnly),
      prompt: "go",
      stopWhen: stepCountIs(5),
    });

    expect(result.text).toBe("I could not store that.");
    const error = result.steps[0]?.content.find((p) => p.type === "tool-error");
    expect(error).toMatchObject({ toolName: "remember", error: { code: "FORBIDDEN", status: 403 } });
  }, 60_000);
});
