import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { httpClient } from "../mcp/mcp-client";
import { envelopeOutcome, http, type Case, type Outcome } from "./outcome";
import { TOOL_ARGS, toolScope, toolWrites } from "./tool-calls";

/** MCP clients, one per credential, connected once (the endpoint is stateless, so one is enough). */
const clients = new Map<string, Promise<Client>>();

export function mcpCases(baseUrl: string, tools: string[]): Case[] {
  return tools.map((tool) => ({
    surface: "mcp",
    name: `tool ${tool}`,
    scope: toolScope(tool),
    write: toolWrites(tool),
    pathIds: false,
    build: (ids) => TOOL_ARGS[tool]!(ids),
    async send(credential, args) {
      if (!credential) {
        // The guard answers before any MCP session: a plain JSON-RPC call shows it.
        const rpc = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } };
        const { res, text } = await http(baseUrl, undefined, {
          path: "/mcp",
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
          body: JSON.stringify(rpc),
        });
        return envelopeOutcome(res.status, text, res.headers);
      }
      const client = await clientOf(baseUrl, credential);
      try {
        const result = await client.callTool({ name: tool, arguments: args as Record<string, unknown> });
        const structured = result.structuredContent as any;
        const error = result.isError ? structured?.error : undefined;
        return {
          status: 200,
          code: result.isError ? (error?.code ?? "TOOL_ERROR") : "OK",
          message: error?.message ?? "",
          details: JSON.stringify(error?.details ?? null),
          text: JSON.stringify(result),
          replayed: false,
          body: structured,
        };
      } catch (err: any) {
        const text = String(err?.message ?? err);
        return {
          status: 200,
          code: `JSONRPC_${err?.code}`,
          message: text,
          details: "null",
          text,
          replayed: false,
          body: {},
        };
      }
    },
  }));
}

/** The MCP client of a credential, connected on first use. */
async function clientOf(baseUrl: string, credential: string): Promise<Client> {
  if (!clients.has(credential)) clients.set(credential, httpClient(baseUrl, credential));
  return clients.get(credential)!;
}

/** A JSON-RPC call without a credential: the guard answers before any MCP session. */
async function anonymousRpc(baseUrl: string, method: string, params: unknown): Promise<Outcome> {
  const { res, text } = await http(baseUrl, undefined, {
    path: "/mcp",
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return envelopeOutcome(res.status, text, res.headers);
}

/** An MCP protocol error as an outcome: our error body travels in its `data` when the service refused. */
function rpcError(err: any): Outcome {
  const error = err?.data?.error;
  const text = `${String(err?.message ?? err)} ${JSON.stringify(err?.data ?? null)}`;
  return {
    status: 200,
    code: error?.code ?? `JSONRPC_${err?.code}`,
    message: error?.message ?? String(err?.message ?? err),
    details: JSON.stringify(error?.details ?? null),
    text,
    replayed: false,
    body: {},
  };
}

/**
 * MCP resources: each template the server lists (one `{id}` each, filled with the memory), and resources/list.
 * resources/list answers an empty list, not a refusal, to a key without `memories:read` (`emptyWithoutScope`).
 */
export function mcpResourceCases(baseUrl: string, templates: string[]): Case[] {
  const reads: Case[] = templates.map((template) => ({
    surface: "mcp",
    name: `resource ${template}`,
    scope: "memories:read",
    write: false,
    pathIds: false,
    build: (ids) => ({ uri: template.replace("{id}", ids.memory) }),
    async send(credential, params) {
      if (!credential) return anonymousRpc(baseUrl, "resources/read", params);
      try {
        const result = await (await clientOf(baseUrl, credential)).readResource(params as { uri: string });
        const text = JSON.stringify(result);
        return { status: 200, code: "OK", message: "", details: "null", text, replayed: false, body: {} };
      } catch (err) {
        return rpcError(err);
      }
    },
  }));
  const list: Case = {
    surface: "mcp",
    name: "resources/list",
    scope: "memories:read",
    write: false,
    pathIds: false,
    emptyWithoutScope: true,
    build: () => ({}),
    async send(credential) {
      if (!credential) return anonymousRpc(baseUrl, "resources/list", {});
      try {
        const result = await (await clientOf(baseUrl, credential)).listResources();
        const text = JSON.stringify(result);
        const code = result.resources.length ? "OK" : "EMPTY";
        return { status: 200, code, message: "", details: "null", text, replayed: false, body: {} };
      } catch (err) {
        return rpcError(err);
      }
    },
  };
  return [...reads, list];
}

export async function closeClients(): Promise<void> {
  for (const client of clients.values()) await (await client).close().catch(() => undefined);
  clients.clear();
}

/** The tools tools/list offers a key. */
export async function mcpToolNames(baseUrl: string, key: string): Promise<string[]> {
  if (!clients.has(key)) clients.set(key, httpClient(baseUrl, key));
  const listed = await (await clients.get(key)!).listTools();
  return listed.tools.map((t) => t.name);
}

/** The resource templates resources/templates/list offers a key. */
export async function mcpResourceTemplates(baseUrl: string, key: string): Promise<string[]> {
  const listed = await (await clientOf(baseUrl, key)).listResourceTemplates();
  return listed.resourceTemplates.map((t) => t.uriTemplate);
}
