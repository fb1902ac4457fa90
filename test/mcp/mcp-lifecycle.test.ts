import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { callTool, httpClient } from "./mcp-client";

/** The MCP tools take a memory's life from the contract's schemas, with nothing of their own. */
let client: Client;
beforeAll(async () => {
  const stack = await testStack();
  const { key } = await newTenant(stack.baseUrl, stack.adminKey);
  client = await httpClient(stack.baseUrl, key);
});
afterAll(async () => {
  await client?.close();
});

test("remember, recall, get_context and list_memories offer and honour the lifecycle fields", async () => {
  const { tools } = await client.listTools();
  const props = (name: string) => Object.keys((tools.find((t) => t.name === name)!.inputSchema as any).properties);
  expect(props("remember")).toEqual(expect.arrayContaining(["occurred_at", "expires_at", "ttl_seconds", "supersedes"]));
  for (const name of ["recall", "get_context"])
    expect(props(name)).toEqual(expect.arrayContaining(["occurred_after", "occurred_before", "latest_only", "as_of"]));
  expect(props("list_memories")).toEqual(expect.arrayContaining(["occurred_after", "occurred_before"]));

  const old = (
    await callTool(client, "remember", { content: "zqdesk is on floor 2", occurred_at: "2022-01-01T00:00:00Z" })
  ).data;
  const fix = await callTool(client, "remember", {
    content: "zqdesk moved to floor 5",
    supersedes: old.id,
    ttl_seconds: 600,
  });
  expect(fix.isError).toBe(false);
  expect(fix.data).toMatchObject({ supersedes: old.id });
  expect(Date.parse(fix.data.expires_at) - Date.parse(fix.data.created_at)).toBe(600_000);
  const latest = await callTool(client, "recall", { query: "zqdesk", latest_only: true });
  expect(
    latest.data.results.map((r: { id: string }) => r.id).filter((id: string) => id === old.id || id === fix.data.id),
  ).toEqual([fix.data.id]);
  const listed = await callTool(client, "list_memories", { sort: "occurred_at", order: "asc" });
  expect(listed.data.items.map((m: { id: string }) => m.id)).toEqual([old.id, fix.data.id]);
  const refused = await callTool(client, "remember", { content: "x", ttl_seconds: 5, expires_at: null });
  expect(refused.isError).toBe(true);
  expect(JSON.parse(refused.content[0].text).error.details).toEqual({ field: "ttl_seconds", constraint: "exclusive" });
});
