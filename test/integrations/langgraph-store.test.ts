import { beforeAll, describe, expect, test } from "bun:test";
import { type BaseStore, InMemoryStore } from "@langchain/langgraph";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { buildClient } from "../sdk/sdk-build";
import type * as Sdk from "../../clients/typescript/src/index.ts";

/**
 * LangGraph ships no store conformance suite in its JavaScript packages, so these are its stores' expectations
 * (put, get, update, delete, search under a namespace prefix with filters and pages, listNamespaces with
 * prefix, suffix, wildcards, maxDepth, limit and offset), run on LangGraph's own InMemoryStore too: the
 * expectations are LangGraph's, and MemoryServiceStore meets them against the real service.
 */
let sdk: typeof Sdk;
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

export const serviceClient = async () =>
  sdk.createClient({ baseUrl, apiKey: (await newTenant(baseUrl, adminKey)).key });

const keysOf = (items: { key: string }[]) => items.map((i) => i.key).sort();

const stores: [string, () => Promise<BaseStore>][] = [
  ["InMemoryStore", async () => new InMemoryStore()],
  ["MemoryServiceStore", async () => new lg.MemoryServiceStore({ client: await serviceClient() })],
];

describe.each(stores)("LangGraph's store expectations on %s", (name, makeStore) => {
  test("put, get, update and delete an item", async () => {
    const store = await makeStore();
    expect(await store.get(["users", "u1"], "prefs")).toBeNull();
    const value = { theme: "dark", nested: { a: { b: { c: { d: { e: ["deep", 1, null, true] } } } } }, text: "é ✓" };
    await store.put(["users", "u1"], "prefs", value);
    const first = await store.get(["users", "u1"], "prefs");
    expect(first).toMatchObject({ key: "prefs", namespace: ["users", "u1"], value });
    expect(first!.createdAt).toBeInstanceOf(Date);
    // InMemoryStore updates the item object it returned, so its times are read now.
    const [created, updated] = [first!.createdAt.getTime(), first!.updatedAt.getTime()];
    await Bun.sleep(5);
    await store.put(["users", "u1"], "prefs", { theme: "light" });
    const second = await store.get(["users", "u1"], "prefs");
    expect(second!.value).toEqual({ theme: "light" });
    expect(second!.createdAt.getTime()).toBe(created);
    expect(second!.updatedAt.getTime()).toBeGreaterThan(updated);
    // The same key in another namespace, a prefix of this one, is another item.
    await store.put(["users"], "prefs", { theme: "blue" });
    expect((await store.get(["users", "u1"], "prefs"))!.value).toEqual({ theme: "light" });
    await store.delete(["users", "u1"], "prefs");
    expect(await store.get(["users", "u1"], "prefs")).toBeNull();
    expect((await store.get(["users"], "prefs"))!.value).toEqual({ theme: "blue" });
    await store.delete(["users", "u1"], "prefs");
  });

  test("search under a namespace prefix, with filters, limit and offset", async () => {
    const store = await makeStore();
    await store.put(["docs", "u1"], "a", { type: "report", score: 5, text: "annual report" });
    await store.put(["docs", "u1"], "b", { type: "note", score: 3, text: "a short note" });
    await store.put(["docs", "u2"], "c", { type: "report", score: 4, text: "quarterly report" });
    await store.put(["other"], "d", { type: "report", score: 9, text: "elsewhere" });

    expect(keysOf(await store.search(["docs"]))).toEqual(["a", "b", "c"]);
    expect(keysOf(await store.search(["docs", "u1"]))).toEqual(["a", "b"]);
    expect(keysOf(await store.search([]))).toEqual(["a", "b", "c", "d"]);
    expect(keysOf(await store.search(["doc"]))).toEqual([]);
    expect(keysOf(await store.search(["docs"], { filter: { type: "report" } }))).toEqual(["a", "c"]);
    expect(keysOf(await store.search([], { filter: { score: { $gt: 4 } } }))).toEqual(["a", "d"]);
    expect(keysOf(await store.search([], { filter: { score: { $gte: 4, $lt: 9 }, type: { $ne: "note" } } }))).toEqual([
      "a",
      "c",
    ]);
    expect(keysOf(await store.search([], { filter: { type: { $in: ["note", "x"] } } }))).toEqual(["b"]);

    const pages = [0, 1, 2, 3].map((offset) => store.search([], { limit: 1, offset }));
    const seen = (await Promise.all(pages)).map((page) => {
      expect(page.length).toBe(1);
      return page[0]!.key;
    });
    expect(seen.sort()).toEqual(["a", "b", "c", "d"]);
    expect(await store.search([], { limit: 2, offset: 4 })).toEqual([]);
    expect((await store.search([], { limit: 3 })).length).toBe(3);
    for (const item of await store.search(["docs"])) expect(item.score).toBeUndefined();
  });

  test("list namespaces: prefix, suffix, wildcards, maxDepth, limit and offset", async () => {
    const store = await makeStore();
    const namespaces = [
      ["a", "b", "c"],
      ["a", "b", "d", "e"],
      ["a", "b", "d", "i"],
      ["a", "b", "f"],
      ["a", "c", "f"],
      ["b", "a", "f"],
      ["users", "123"],
      ["users", "456", "settings"],
      ["admin", "users", "789"],
    ];
    for (const [i, ns] of namespaces.entries()) await store.put(ns, `k${i}`, { i });

    expect(await store.listNamespaces({ prefix: ["a", "b"] })).toEqual([
      ["a", "b", "c"],
      ["a", "b", "d", "e"],
      ["a", "b", "d", "i"],
      ["a", "b", "f"],
    ]);
    expect(await store.listNamespaces({ suffix: ["f"] })).toEqual([
      ["a", "b", "f"],
      ["a", "c", "f"],
      ["b", "a", "f"],
    ]);
    expect(await store.listNamespaces({ prefix: ["a"], suffix: ["f"] })).toEqual([
      ["a", "b", "f"],
      ["a", "c", "f"],
    ]);
    expect(await store.listNamespaces({ prefix: ["a", "*", "f"] })).toEqual([
      ["a", "b", "f"],
      ["a", "c", "f"],
    ]);
    expect(await store.listNamespaces({ suffix: ["*", "f"] })).toEqual([
      ["a", "b", "f"],
      ["a", "c", "f"],
      ["b", "a", "f"],
    ]);
    expect(await store.listNamespaces({ prefix: ["a", "b"], maxDepth: 3 })).toEqual([
      ["a", "b", "c"],
      ["a", "b", "d"],
      ["a", "b", "f"],
    ]);
    expect(await store.listNamespaces({ maxDepth: 1 })).toEqual([["a"], ["admin"], ["b"], ["users"]]);
    const all = await store.listNamespaces({ limit: 100 });
    expect(all.length).toBe(namespaces.length);
    expect(await store.listNamespaces({ limit: 3, offset: 2 })).toEqual(all.slice(2, 5));
    expect(await store.listNamespaces({ prefix: ["users"] })).toEqual([
      ["users", "123"],
      ["users", "456", "settings"],
    ]);

    // A namespace whose last item is deleted is no longer listed, as with LangGraph's PostgresStore
    // (InMemoryStore keeps listing it).
    await store.delete(["users", "123"], "k6");
    const users = await store.listNamespaces({ prefix: ["users"] });
    if (name === "MemoryServiceStore") expect(users).toEqual([["users", "456", "settings"]]);
  });

  test("a batch answers each operation in its place", async () => {
    const store = await makeStore();
    await store.put(["b", "x"], "old", { n: 0 });
    const results = await store.batch([
      { namespace: ["b", "x"], key: "old" },
      { namespacePrefix: ["b"], limit: 10, offset: 0 },
      { matchConditions: [{ matchType: "prefix", path: ["b"] }], limit: 10, offset: 0 },
      { namespace: ["b", "y"], key: "new", value: { n: 1 } },
      { namespace: ["b", "x"], key: "old", value: null },
    ] as const);
    expect(results[0]).toMatchObject({ key: "old", value: { n: 0 } });
    expect(keysOf(results[1] as { key: string }[])).toEqual(["old"]);
    expect(results[2]).toEqual([["b", "x"]]);
    expect([results[3], results[4]] as unknown[]).toEqual([null, null]);
    expect(await store.get(["b", "x"], "old")).toBeNull();
    expect((await store.get(["b", "y"], "new"))!.value).toEqual({ n: 1 });
  });
});
