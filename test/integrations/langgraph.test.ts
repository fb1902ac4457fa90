import { beforeAll, describe, expect, test } from "bun:test";
import { Annotation, type LangGraphRunnableConfig, StateGraph, getStore } from "@langchain/langgraph";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { word } from "../search/search-helpers";
import { buildClient } from "../sdk/sdk-build";

/** MemoryServiceStore as a LangGraph application uses it: search by meaning, and inside a compiled graph. */
let sdk: typeof import("@memory-service/client");
let lg: typeof import("@memory-service/client/langgraph");
let baseUrl: string;
let adminKey: string;

beforeAll(async () => {
  await buildClient();
  sdk = await import("@memory-service/client");
  lg = await import("@memory-service/client/langgraph");
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  adminKey = stack.adminKey;
}, 120_000);

const serviceClient = async () => sdk.createClient({ baseUrl, apiKey: (await newTenant(baseUrl, adminKey)).key });

describe("MemoryServiceStore", () => {
  test("search with a query ranks by meaning under the prefix, with the score and the value's filter", async () => {
    const client = await serviceClient();
    const store = new lg.MemoryServiceStore({ client, index: { fields: ["text"] } });
    const [food, pet] = [word(), word()];
    await store.put(["memories", "ann"], "food", { text: `Ann loves ${food} pizza with olives`, kind: "pref" });
    await store.put(["memories", "ann"], "pet", { text: `Ann has a dog called ${pet}`, kind: "fact" });
    await store.put(["memories", "bob"], "food", { text: `Bob hates ${food} pizza`, kind: "pref" });

    const hits = await store.search(["memories", "ann"], { query: `which ${food} pizza does she like?` });
    expect(hits[0]).toMatchObject({ key: "food", namespace: ["memories", "ann"], value: { kind: "pref" } });
    expect(hits.every((h) => h.namespace[1] === "ann")).toBe(true);
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    const both = await store.search(["memories"], { query: `${food} pizza`, filter: { kind: "pref" } });
    expect(both.map((h) => h.namespace[1]).sort()).toEqual(["ann", "bob"]);
    expect(await store.search(["memories"], { query: `${food} pizza`, filter: { kind: "pref" }, offset: 1 })).toEqual([
      both[1]!,
    ]);

    // The memory's content is the indexed field: what the dashboard shows and search ranks.
    const { results } = await client.search({ query: pet, limit: 1 });
    expect(results[0]!.content).toBe(`Ann has a dog called ${pet}`);
    expect(results[0]!.metadata).toMatchObject({ lg_namespace: ["memories", "ann"], lg_key: "pet" });
  });

  test("a store's name keeps its items apart from another store's on the same tenant", async () => {
    const client = await serviceClient();
    const a = new lg.MemoryServiceStore({ client, name: "agent-a" });
    const b = new lg.MemoryServiceStore({ client, name: "agent-b" });
    await a.put(["shared"], "k", { owner: "a" });
    expect(await b.get(["shared"], "k")).toBeNull();
    expect(await b.search([])).toEqual([]);
    expect(await b.listNamespaces()).toEqual([]);
    await b.put(["shared"], "k", { owner: "b" });
    expect((await a.get(["shared"], "k"))!.value).toEqual({ owner: "a" });
  });

  test("concurrent puts of one new key make one item, holding one of the values", async () => {
    const client = await serviceClient();
    const stores = [1, 2, 3].map(() => new lg.MemoryServiceStore({ client }));
    await Promise.all(stores.map((s, i) => s.put(["race"], "k", { i })));
    const items = await stores[0]!.search(["race"]);
    expect(items.length).toBe(1);
    expect([0, 1, 2]).toContain(items[0]!.value.i);
    expect((await client.memories.list({ root: true })).total).toBe(1);
  });

  test("a compiled graph's nodes write and read long-term memory through config.store and getStore()", async () => {
    const client = await serviceClient();
    const State = Annotation.Root({
      userId: Annotation<string>,
      fact: Annotation<string>,
      recalled: Annotation<string[]>,
    });
    const remember = async (state: typeof State.State, config: LangGraphRunnableConfig) => {
      await config.store!.put(["users", state.userId, "facts"], crypto.randomUUID(), { text: state.fact });
      return {};
    };
    const recall = async (state: typeof State.State) => {
      const items = await getStore()!.search(["users", state.userId], { query: state.fact, limit: 5 });
      return { recalled: items.map((i) => i.value.text as string) };
    };
    const graph = new StateGraph(State)
      .addNode("remember", remember)
      .addNode("recall", recall)
      .addEdge("__start__", "remember")
      .addEdge("remember", "recall")
      .compile({ store: new lg.MemoryServiceStore({ client, index: { fields: ["text"] } }) });

    const fact = `Ann's favourite colour is ${word()}`;
    const out = await graph.invoke({ userId: "ann", fact, recalled: [] });
    expect(out.recalled).toEqual([fact]);
    // Another process (a new store, no cache) finds the memory in the service.
    const again = new lg.MemoryServiceStore({ client });
    expect(await again.listNamespaces()).toEqual([["users", "ann", "facts"]]);
    expect((await again.search(["users"]))[0]!.value).toEqual({ text: fact });
  });

  test("the README's example stores and recalls through a graph", async () => {
    const client = await serviceClient();
    const { memoryGraph } = await import("../../clients/typescript/examples/langgraph.ts");
    const graph = memoryGraph(client);
    const hobby = word();
    await graph.invoke({ userId: "ann", message: `I love ${hobby} sailing`, question: "", recalled: [] });
    const out = await graph.invoke({ userId: "ann", message: "I live in Oslo", question: `${hobby}?`, recalled: [] });
    expect(out.recalled[0]).toStartWith(`I love ${hobby} sailing (score 0.`);
    expect(out.recalled.length).toBe(2);
  });
});
