import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { eventually, word } from "../search/search-helpers";
import { callTool, httpClient, stdioClient } from "./mcp-client";

const TOOLS = [
  "remember",
  "recall",
  "get_context",
  "list_memories",
  "get_memory",
  "forget",
  "tag_memory",
  "link_entity",
].sort();

let baseUrl: string;
let owner: Awaited<ReturnType<typeof newTenant>>;
const clients: Client[] = [];
const track = (c: Client) => (clients.push(c), c);

beforeAll(async () => {
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  owner = await newTenant(baseUrl, stack.adminKey);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

/** remember → recall → get_context through one client: the round trip an agent makes. */
async function rememberRecallContext(client: Client) {
  const topic = word();
  const root = await callTool(client, "remember", {
    content: `Trip planning with Ada about ${topic}`,
    content_type: "conversation",
    tags: ["travel", "Ada"],
  });
  expect(root.isError).toBe(false);
  expect(root.data.tags.map((t: { name: string }) => t.name).sort()).toEqual(["Ada", "travel"]);
  const turn = await callTool(client, "remember", {
    content: `Ada prefers window seats on the ${topic} flight`,
    parent_memory_id: root.data.id,
    tags: ["TRAVEL"],
  });
  expect(turn.isError).toBe(false);
  expect(turn.data.parent_memory_id).toBe(root.data.id);
  // The same tag name in another case is the same tag, not a second one.
  expect(turn.data.tags).toEqual([root.data.tags.find((t: { name: string }) => t.name === "travel")]);

  const hits = await eventually(async () => {
    const r = await callTool(client, "recall", { query: `${topic} seat preference`, limit: 5 });
    expect(r.isError).toBe(false);
    expect(r.data.results.map((m: { id: string }) => m.id)).toContain(turn.data.id);
    return r.data.results;
  });
  expect(hits[0].score).toBeGreaterThan(0);

  const context = await callTool(client, "get_context", { query: `${topic} seats`, max_tokens: 500 });
  expect(context.isError).toBe(false);
  expect(context.content[0].text).toBe(context.data.context);
  expect(context.data.context).toContain("window seats");
  expect(context.data.context).toContain("Trip planning with Ada"); // the thread's root, as its ancestor
  return { root: root.data, turn: turn.data, topic };
}

describe("MCP over Streamable HTTP (/mcp)", () => {
  test("lists the eight tools with JSON Schema inputs from the contract", async () => {
    const client = track(await httpClient(baseUrl, owner.key));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe("object");
    }
    const remember = tools.find((t) => t.name === "remember")!;
    expect(remember.inputSchema.required).toEqual(["content"]);
    expect((remember.inputSchema.properties as any).tier.anyOf.map((s: any) => s.const)).toEqual([
      "short",
      "medium",
      "long",
    ]);
    expect(client.getServerVersion()?.name).toBe("memory-service");
  });

  test("remember, recall and get_context", async () => {
    await rememberRecallContext(track(await httpClient(baseUrl, owner.key)));
  });

  test("list, get, tag, link an entity and forget", async () => {
    const client = track(await httpClient(baseUrl, owner.key));
    const root = (await callTool(client, "remember", { content: "Project kickoff notes" })).data;
    const child = (await callTool(client, "remember", { content: "Budget agreed", parent_memory_id: root.id })).data;
    const listed = await callTool(client, "list_memories", { parent_memory_id: root.id });
    expect(listed.data.items.map((m: { id: string }) => m.id)).toEqual([child.id]);
    expect(listed.data.total).toBe(1);

    const tagged = await callTool(client, "tag_memory", { memory_id: child.id, tags: ["finance", "Finance", "q3"] });
    expect(tagged.isError).toBe(false);
    expect(tagged.data.tags.map((t: { name: string }) => t.name)).toEqual(["finance", "q3"]);

    const first = await callTool(client, "link_entity", { memory_ids: [child.id], name: "Acme", type: "organization" });
    const again = await callTool(client, "link_entity", { memory_ids: [root.id], name: "ACME", type: "organization" });
    expect(first.isError).toBe(false);
    expect(again.data.entity_id).toBe(first.data.entity_id); // found by name, not created twice
    expect(again.data.memory_count).toBe(2);

    const got = await callTool(client, "get_memory", { id: child.id });
    expect(got.data.entity_ids).toEqual([first.data.entity_id]);
    expect(got.data.tags.map((t: { name: string }) => t.name)).toEqual(["finance", "q3"]);

    const gone = await callTool(client, "forget", { id: child.id });
    expect(gone.data).toEqual({ id: child.id, deleted: true });
    const after = await callTool(client, "get_memory", { id: child.id });
    expect(after.isError).toBe(true);
    expect(after.data.error).toEqual({ code: "NOT_FOUND", message: "Memory not found" });
  });

  test("invalid arguments are a tool error with the contract's code and details; nothing is stored", async () => {
    const client = track(await httpClient(baseUrl, owner.key));
    const empty = await callTool(client, "remember", { content: "" });
    expect(empty.isError).toBe(true);
    expect(empty.data.error.code).toBe("VALIDATION_ERROR");
    expect(empty.data.error.details).toMatchObject({ field: "content", constraint: "required" });
    expect(JSON.parse(empty.content[0].text)).toEqual(empty.data);

    const badTag = await callTool(client, "remember", { content: "kept?", tags: ["x".repeat(51)] });
    expect(badTag.data.error.details).toMatchObject({ field: "tags.0" });
    const unknown = await callTool(client, "remember", { content: "kept?", secret: 1 });
    expect(unknown.data.error.details).toMatchObject({ field: "secret", constraint: "unknown_field" });
    const noType = await callTool(client, "link_entity", { memory_ids: [crypto.randomUUID()], name: "Bob" });
    expect(noType.data.error.details).toMatchObject({ field: "type", constraint: "required" });
    const listed = await callTool(client, "recall", { query: "*", content_type: "text", limit: 100 });
    expect(listed.data.results.some((m: { content: string }) => m.content === "kept?")).toBe(false);

    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  test("a remember retried with its external_id stores one memory; the retry is refused and finds it", async () => {
    const client = track(await httpClient(baseUrl, owner.key));
    const external_id = `agent-${crypto.randomUUID()}`;
    const first = await callTool(client, "remember", { content: "Ann moved to Porto", external_id, tags: ["moves"] });
    expect(first.isError).toBe(false);
    const retry = await callTool(client, "remember", { content: "Ann moved to Porto", external_id, tags: ["moves"] });
    expect(retry.isError).toBe(true);
    expect(retry.data.error.details).toEqual({ field: "external_id", constraint: "unique" });
    const found = await callTool(client, "list_memories", { external_id });
    expect(found.data.items.map((m: { id: string }) => m.id)).toEqual([first.data.id]);
    expect(found.data.items[0].tags.map((t: { name: string }) => t.name)).toEqual(["moves"]);
  });

  test("a key without a tool's scope is not offered it, and is refused with FORBIDDEN", async () => {
    const stack = await testStack();
    const reader = await newTenant(baseUrl, stack.adminKey, { scopes: ["memories:read"], tenant: owner.tenant });
    const client = track(await httpClient(baseUrl, reader.key));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_memory", "list_memories"]);
    const refused = await callTool(client, "remember", { content: "not allowed" });
    expect(refused.isError).toBe(true);
    expect(refused.data.error).toEqual({ code: "FORBIDDEN", message: "Missing required scope: memories:write" });
    const search = await callTool(client, "recall", { query: "anything" });
    expect(search.data.error.code).toBe("FORBIDDEN");
  });

  test("another tenant's memory is not found, by tool or by resource", async () => {
    const stack = await testStack();
    const mine = track(await httpClient(baseUrl, owner.key));
    const secret = (await callTool(mine, "remember", { content: `private ${word()}` })).data;
    const other = await newTenant(baseUrl, stack.adminKey);
    const theirs = track(await httpClient(baseUrl, other.key));
    const got = await callTool(theirs, "get_memory", { id: secret.id });
    expect(got.data.error.code).toBe("NOT_FOUND");
    const forgot = await callTool(theirs, "forget", { id: secret.id });
    expect(forgot.data.error.code).toBe("NOT_FOUND");
    const tagged = await callTool(theirs, "tag_memory", { memory_id: secret.id, tags: ["x"] });
    expect(tagged.data.error.code).toBe("NOT_FOUND");
    await expect(theirs.readResource({ uri: `memory://${secret.id}` })).rejects.toThrow(/Resource not found/);
    const recalled = await callTool(theirs, "recall", { query: secret.content });
    expect(recalled.data.results).toEqual([]);
    // Still there for its owner.
    expect((await callTool(mine, "get_memory", { id: secret.id })).data.id).toBe(secret.id);
  });

  test("resources: a memory by URI and a thread with its turns", async () => {
    const client = track(await httpClient(baseUrl, owner.key));
    const root = (await callTool(client, "remember", { content: "Weekly sync" })).data;
    for (const content of ["First point", "Second point"])
      await callTool(client, "remember", { content, parent_memory_id: root.id });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["memory://{id}", "thread://{id}"]);

    const memory = await client.readResource({ uri: `memory://${root.id}` });
    expect(JSON.parse((memory.contents[0] as { text: string }).text)).toMatchObject({ id: root.id });
    const thread = await client.readResource({ uri: `thread://${root.id}` });
    const text = (thread.contents[0] as { text: string }).text;
    expect(thread.contents[0]!.mimeType).toBe("text/markdown");
    expect(text.startsWith("# Weekly sync\n")).toBe(true);
    expect(text.indexOf("First point")).toBeLessThan(text.indexOf("Second point"));
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`thread://${root.id}`);
    await expect(client.readResource({ uri: "thread://not-an-id" })).rejects.toThrow(/Resource not found/);
  });

  test("HTTP: no key is 401 in the REST envelope, GET is 405, and tool calls count as usage", async () => {
    const anonymous = await fetch(`${baseUrl}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("UNAUTHORIZED");
    const get = await fetch(`${baseUrl}/mcp`, { headers: { Authorization: `Bearer ${owner.key}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");

    const stack = await testStack();
    const counted = await newTenant(baseUrl, stack.adminKey, { tenant: owner.tenant });
    const client = track(await httpClient(baseUrl, counted.key));
    await callTool(client, "remember", { content: "counted" });
    const admin = await newTenant(baseUrl, stack.adminKey, { scopes: ["admin"], tenant: owner.tenant });
    await eventually(async () => {
      const report = (await admin.api.get(`/v1/usage?key_id=${counted.keyId}`)).body.data;
      expect(report.by_endpoint.find((e: { endpoint: string }) => e.endpoint === "MCP remember")).toMatchObject({
        requests: 1,
        errors: 0,
      });
    });
  });
});

describe("MCP over stdio (the bridge a desktop client spawns)", () => {
  test("lists the tools, remembers, recalls and builds context", async () => {
    const client = track(await stdioClient(baseUrl, owner.key));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    await rememberRecallContext(client);
  });

  test("the key's scopes and tenant hold through the bridge", async () => {
    const stack = await testStack();
    const reader = await newTenant(baseUrl, stack.adminKey, { scopes: ["search:read"] });
    const client = track(await stdioClient(baseUrl, reader.key));
    const refused = await callTool(client, "remember", { content: "nope" });
    expect(refused.data.error.code).toBe("FORBIDDEN");
    const mine = track(await httpClient(baseUrl, owner.key));
    const secret = (await callTool(mine, "remember", { content: `bridge ${word()}` })).data;
    const other = track(await stdioClient(baseUrl, (await newTenant(baseUrl, stack.adminKey)).key));
    expect((await callTool(other, "get_memory", { id: secret.id })).data.error.code).toBe("NOT_FOUND");
  });

  test("a wrong key fails the connection with the service's code", async () => {
    await expect(stdioClient(baseUrl, "svc_live_wrong")).rejects.toThrow(/UNAUTHORIZED/);
  });
});
