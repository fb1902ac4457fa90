import { beforeAll, describe, expect, test } from "bun:test";
import { Agent, run, type AgentInputItem } from "@openai/agents";
import { assistantMessage, functionCall, modelResponder, ScriptedModel } from "@openai/agents/testing";
import { newTenant } from "../api";
import { testStack } from "../harness";
import { eventually, word } from "../search/search-helpers";
import { buildClient } from "../sdk/sdk-build";
import type * as Sdk from "../../clients/typescript/src/index.ts";
import type * as Agents from "@memory-service/client/openai-agents";
import type * as Example from "../../clients/typescript/examples/openai-agents.ts";

type Client = Sdk.MemoryServiceClient;

/** The package as an application imports it, built first. */
let sdk: typeof Sdk;
let agents: typeof Agents;
let example: typeof Example;
let baseUrl: string;
let adminKey: string;

beforeAll(async () => {
  await buildClient();
  sdk = await import("@memory-service/client");
  agents = await import("@memory-service/client/openai-agents");
  example = await import("../../clients/typescript/examples/openai-agents.ts");
  ({ baseUrl, adminKey } = await testStack());
}, 120_000);

const newClient = async (): Promise<Client> =>
  sdk.createClient({ baseUrl, apiKey: (await newTenant(baseUrl, adminKey)).key });

/** One item of every kind a run stores, with the fields that must come back unchanged. */
const EVERY_KIND: AgentInputItem[] = [
  { role: "user", content: 'Hi 👋 "quoted"\nsecond line \u0000 end' },
  {
    type: "message",
    role: "user",
    content: [
      { type: "input_text", text: "What is in this picture?" },
      { type: "input_image", image: "https://example.com/a.png", detail: "low" },
    ],
    providerData: { nested: { deep: [1, { a: null, b: 2.5 }] } },
  },
  { type: "message", role: "system", content: "Be brief." },
  {
    type: "message",
    role: "assistant",
    id: "msg_1",
    status: "completed",
    content: [{ type: "output_text", text: "A cat.", providerData: { annotations: [] } }],
  },
  {
    type: "function_call",
    id: "fc_1",
    callId: "call_1",
    name: "recall",
    arguments: '{"query":"cats"}',
    status: "completed",
  },
  {
    type: "function_call_result",
    callId: "call_1",
    name: "recall",
    status: "completed",
    output: { type: "text", text: '{"memories":[]}' },
  },
  { type: "reasoning", id: "rs_1", content: [{ type: "input_text", text: "The user asks about cats." }] },
  { type: "hosted_tool_call", id: "ws_1", name: "web_search_call", status: "completed", arguments: "{}" },
  { type: "unknown", providerData: { kind: "future item" } },
];

describe("MemoryServiceSession: an Agents SDK session stored as a thread", () => {
  test("the Session contract: add, get, limit, pop, clear, in order, every item kind unchanged", async () => {
    const client = await newClient();
    const session = new agents.MemoryServiceSession({ client, metadata: { user_id: "u_1" } });
    const id = await session.getSessionId();
    expect(await session.getSessionId()).toBe(id);
    expect(await session.getItems()).toEqual([]);
    expect(await session.popItem()).toBeUndefined();

    await session.addItems(EVERY_KIND);
    await session.addItems([]);
    expect(await session.getItems()).toEqual(EVERY_KIND);
    expect(await session.getItems(3)).toEqual(EVERY_KIND.slice(-3));
    expect(await session.getItems(0)).toEqual([]);
    expect(await session.getItems(1000)).toEqual(EVERY_KIND);

    // Stored as a thread: a conversation root, one child per item, readable, its JSON kept in metadata.
    expect(await client.memories.get(id)).toMatchObject({ content_type: "conversation", metadata: { user_id: "u_1" } });
    const children = await client.memories.list({ parent_memory_id: id, sort: "occurred_at", order: "asc" });
    expect(children.items.map((m) => [m.metadata.agents_item, m.content])).toEqual([
      ["user", `user: ${(EVERY_KIND[0] as { content: string }).content}`],
      ["user", "user: What is in this picture?\n[input_image]"],
      ["system", "system: Be brief."],
      ["assistant", "assistant: A cat."],
      ["function_call", 'tool call recall({"query":"cats"})'],
      ["function_call_result", 'tool result recall: {"memories":[]}'],
      ["reasoning", "reasoning: The user asks about cats."],
      ["hosted_tool_call", "[hosted_tool_call web_search_call]"],
      ["unknown", "[unknown]"],
    ]);
    expect(children.items.every((m) => m.metadata.user_id === "u_1")).toBe(true);

    // Another object on the same id (another process, later) reads and pops the same history.
    const again = new agents.MemoryServiceSession({ client, sessionId: id });
    expect(await again.popItem()).toEqual(EVERY_KIND.at(-1) as AgentInputItem);
    expect(await again.popItem()).toEqual(EVERY_KIND.at(-2) as AgentInputItem);
    expect(await session.getItems()).toEqual(EVERY_KIND.slice(0, -2));

    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    expect(await session.getSessionId()).toBe(id);
    expect((await client.memories.get(id)).id).toBe(id);
    await session.addItems([{ role: "user", content: "after the clear" }]);
    expect(await again.getItems()).toEqual([{ role: "user", content: "after the clear" }]);
  }, 60_000);

  test("a token restricted to one user keeps a session: its items carry the user, others see none", async () => {
    const backend = await newClient();
    const { token } = await backend.tokens.create({
      scopes: ["memories:read", "memories:write", "search:read"],
      restrict: { metadata: { user_id: "u_1" } },
      ttl_seconds: 300,
    });
    const browser = sdk.createClient({ baseUrl, apiKey: token });
    const session = new agents.MemoryServiceSession({ client: browser });
    await session.addItems([{ role: "user", content: "hello" }]);
    expect(await session.getItems()).toEqual([{ role: "user", content: "hello" }]);
    const id = await session.getSessionId();
    expect((await backend.memories.get(id)).metadata).toEqual({ user_id: "u_1" });
    const [turn] = (await backend.memories.list({ parent_memory_id: id })).items;
    expect(turn?.metadata.user_id).toBe("u_1");

    const other = await backend.tokens.create({
      scopes: ["memories:read"],
      restrict: { metadata: { user_id: "u_2" } },
      ttl_seconds: 300,
    });
    const stranger = new agents.MemoryServiceSession({
      client: sdk.createClient({ baseUrl, apiKey: other.token }),
      sessionId: id,
    });
    expect(await stranger.getItems()).toEqual([]);
  }, 60_000);

  test("an item too large for metadata is kept as JSON content, and comes back the same", async () => {
    const client = await newClient();
    const session = new agents.MemoryServiceSession({ client });
    const large: AgentInputItem = { role: "user", content: "é".repeat(20_000) };
    await session.addItems([large, { role: "user", content: "small" }]);
    expect(await session.getItems()).toEqual([large, { role: "user", content: "small" }]);
    const parent = await session.getSessionId();
    const [stored] = (await client.memories.list({ parent_memory_id: parent, sort: "occurred_at", order: "asc" }))
      .items;
    expect(stored?.content).toBe(JSON.stringify(large));
  }, 60_000);

  test("items added in one call and in quick successive calls keep their order, past one page", async () => {
    const client = await newClient();
    const session = new agents.MemoryServiceSession({ client });
    const items: AgentInputItem[] = Array.from({ length: 230 }, (_, i) => ({ role: "user", content: `turn ${i}` }));
    await session.addItems(items.slice(0, 150));
    for (const item of items.slice(150)) await session.addItems([item]);
    expect(await session.getItems()).toEqual(items);
    expect(await session.getItems(120)).toEqual(items.slice(-120));
    expect(await session.popItem()).toEqual(items.at(-1) as AgentInputItem);
    // An item written by a process whose clock is an hour ahead: a later writer's items still come after it.
    const id = await session.getSessionId();
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    const aheadItem: AgentInputItem = {
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "from the future" }],
    };
    await new agents.MemoryServiceSession({ client, sessionId: id }).addItems([aheadItem]);
    await client.memories.update(
      (await client.memories.list({ parent_memory_id: id, order: "desc", limit: 1 })).items[0]!.id,
      {
        occurred_at: ahead,
      },
    );
    await new agents.MemoryServiceSession({ client, sessionId: id }).addItems([{ role: "user", content: "later" }]);
    expect(await session.getItems(2)).toEqual([aheadItem, { role: "user", content: "later" }]);
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
  }, 60_000);

  test("run() reads the earlier turns from the session and stores the new ones, across session objects", async () => {
    const client = await newClient();
    const model = new ScriptedModel([[assistantMessage("Hello Ann.")], [assistantMessage("Your name is Ann.")]]);

    const first = await example.chatTurn(client, model, "My name is Ann.");
    expect(first.reply).toBe("Hello Ann.");
    // A new session object on the stored id, as a later request of the application would make.
    const second = await example.chatTurn(client, model, "What is my name?", first.sessionId);
    expect(second).toEqual({ reply: "Your name is Ann.", sessionId: first.sessionId });
    model.assertComplete();

    const shown = JSON.stringify(model.calls[1]?.request.input);
    expect(shown).toContain("My name is Ann.");
    expect(shown).toContain("Hello Ann.");
    const stored = await new agents.MemoryServiceSession({ client, sessionId: first.sessionId }).getItems();
    expect(stored.map((i) => JSON.stringify(i))).toEqual([
      expect.stringContaining("My name is Ann."),
      expect.stringContaining("Hello Ann."),
      expect.stringContaining("What is my name?"),
      expect.stringContaining("Your name is Ann."),
    ]);
  }, 60_000);
});

describe("memoryTools for the Agents SDK", () => {
  test("a run calls remember, then recall: stored for the user, found again, the calls in the session", async () => {
    const client = await newClient();
    const fact = `Ann's passport number ends in ${word()}`;
    let storedId = "";
    const model = new ScriptedModel([
      [functionCall("remember", { content: fact, nature: "semantic" }, { callId: "call_1" })],
      modelResponder(async (call) => {
        storedId = JSON.parse(toolOutput(call.request.input, "call_1")).id;
        await eventually(async () =>
          expect((await client.search({ query: fact })).results.map((r) => r.id)).toContain(storedId),
        );
        return [functionCall("recall", { query: fact, limit: null }, { callId: "call_2" })];
      }),
      [assistantMessage("Stored and found.")],
    ]);

    const { reply, sessionId } = await example.chatTurn(client, model, "Remember my passport number.");

    expect(reply).toBe("Stored and found.");
    expect(await client.memories.get(storedId)).toMatchObject({
      content: fact,
      memory_nature: "semantic",
      metadata: { user_id: "u_42" },
    });
    const recalled = JSON.parse(toolOutput(model.calls[2]?.request.input, "call_2"));
    expect(recalled.memories[0]).toMatchObject({ id: storedId, content: fact });
    // The session holds the whole turn, the tool calls and their results included.
    const kinds = (await new agents.MemoryServiceSession({ client, sessionId }).getItems()).map(
      (i) => (i as { type?: string }).type ?? "message",
    );
    expect(kinds).toEqual([
      "message",
      "function_call",
      "function_call_result",
      "function_call",
      "function_call_result",
      "message",
    ]);
  }, 60_000);

  test("getContext answers the user's memories within the budget; a refusal is told to the model", async () => {
    const client = await newClient();
    const topic = word();
    const mine = await client.memories.create({
      content: `Ann flies ${topic} airlines`,
      metadata: { user_id: "u_42" },
    });
    await client.memories.create({ content: `Bob flies ${topic} airlines`, metadata: { user_id: "u_9" } });
    await eventually(async () => expect((await client.search({ query: topic })).results).toHaveLength(2));
    const model = new ScriptedModel([
      [functionCall("getContext", { query: topic }, { callId: "call_1" })],
      [assistantMessage("done")],
    ]);

    await example.chatTurn(client, model, "Which airline?");

    const context = JSON.parse(toolOutput(model.calls[1]?.request.input, "call_1"));
    // The user's memories (this conversation's thread too, once indexed), and nothing of another user's.
    expect(context.truncated).toBe(false);
    expect(context.context).toContain(mine.content);
    expect(context.context).not.toContain("Bob");

    const readOnly = sdk.createClient({
      baseUrl,
      apiKey: (await newTenant(baseUrl, adminKey, { scopes: ["memories:read", "search:read"] })).key,
    });
    const refused = new ScriptedModel([
      [functionCall("remember", { content: "x" }, { callId: "call_9" })],
      [assistantMessage("I could not.")],
    ]);
    const agent = new Agent({ name: "a", model: refused, tools: agents.memoryTools(readOnly) });
    expect((await run(agent, "go")).finalOutput).toBe("I could not.");
    expect(toolOutput(refused.calls[1]?.request.input, "call_9")).toContain("FORBIDDEN");
  }, 60_000);
});

/** The text a tool answered for a call, from the input the model is shown next. */
function toolOutput(input: unknown, callId: string): string {
  const items = input as { type?: string; callId?: string; output?: { type: string; text?: string } | string }[];
  const result = items.find((i) => i.type === "function_call_result" && i.callId === callId);
  if (!result) throw new Error(`the model was shown no result of ${callId}`);
  return typeof result.output === "string" ? result.output : (result.output?.text ?? "");
}
