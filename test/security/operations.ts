import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Scope } from "../../services/contract/op";
import { httpClient } from "../mcp/mcp-client";
import type { Ids } from "./ids";
import { GRAPHQL_CALLS } from "./graphql-calls";
import { REST_INPUTS, restRequest, restRoutes } from "./rest-calls";
import { STREAM_CALLS } from "./stream-calls";
import { TOOL_ARGS, toolScope, toolWrites } from "./tool-calls";

export type Surface = "rest" | "graphql" | "mcp" | "stream";

/** What any surface answered, in one shape: HTTP status, error code ("OK" on success), message and details. */
export interface Outcome {
  status: number;
  code: string;
  message: string;
  details: string;
  /** The whole answer, to look for what must not be in it. */
  text: string;
  /** The answer was a kept one (Idempotent-Replayed). */
  replayed: boolean;
  /** The parsed answer (REST envelope, GraphQL result, MCP structured content), for counts. */
  body: unknown;
}

/** One operation of one surface, callable with any credential and any ids. */
export interface Case {
  surface: Surface;
  name: string;
  scope: Scope;
  write: boolean;
  /** Its path names resources: a foreign id there is a 404. */
  pathIds: boolean;
  build(ids: Ids): unknown;
  send(credential: string | undefined, request: unknown, headers?: Record<string, string>): Promise<Outcome>;
}

const parse = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

function envelopeOutcome(status: number, text: string, headers: Headers): Outcome {
  const body = parse(text);
  const error = body?.error;
  return {
    status,
    code: error?.code ?? (status < 400 ? "OK" : `HTTP_${status}`),
    message: error?.message ?? "",
    details: JSON.stringify(error?.details ?? null),
    text,
    replayed: headers.get("idempotent-replayed") === "true",
    body,
  };
}

async function http(baseUrl: string, credential: string | undefined, init: RequestInit & { path: string }) {
  const headers = new Headers(init.headers);
  if (credential) headers.set("Authorization", `Bearer ${credential}`);
  const res = await fetch(baseUrl + init.path, { ...init, headers });
  return { res, text: await res.text() };
}

/** Reads a Server-Sent Events answer for a short while: its first `next` event, or nothing (a stream left open). */
async function readSse(res: Response, ms: number): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !text.includes("event: next") && !text.includes("event: complete")) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)]);
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  const data = text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => l.slice(6));
  return data[0] ?? "{}";
}

export function restCases(baseUrl: string): Case[] {
  return restRoutes.map((route) => ({
    surface: "rest",
    name: `${route.method} /v1${route.path}`,
    scope: route.op.scope!,
    write: !route.op.idempotent,
    pathIds: Object.keys(route.params ?? {}).length > 0,
    build: (ids) => restRequest(route, ids),
    async send(credential, request, headers = {}) {
      const r = request as ReturnType<typeof restRequest>;
      const { res, text } = await http(baseUrl, credential, {
        path: r.path,
        method: r.method,
        headers: { ...(r.body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
      });
      return envelopeOutcome(res.status, text, res.headers);
    },
  }));
}

export function graphqlCases(baseUrl: string, fields: { name: string; root: string }[]): Case[] {
  return fields.map(({ name, root }) => {
    const call = GRAPHQL_CALLS[name]!;
    const subscription = root === "Subscription";
    return {
      surface: "graphql",
      name: `${root}.${name}`,
      scope: subscription ? "memories:read" : call.op.scope!,
      write: root === "Mutation",
      pathIds: false,
      build: (ids) => ({ query: call.doc, variables: call.vars(ids) }),
      async send(credential, request, headers = {}) {
        const accept = subscription ? "text/event-stream" : "application/graphql-response+json, application/json";
        const headerOf = { "Content-Type": "application/json", Accept: accept, ...headers };
        const abort = new AbortController();
        const { res, text: raw } = subscription
          ? await (async () => {
              const h = new Headers(headerOf);
              if (credential) h.set("Authorization", `Bearer ${credential}`);
              const res = await fetch(`${baseUrl}/graphql`, {
                method: "POST",
                headers: h,
                body: JSON.stringify(request),
                signal: abort.signal,
              });
              const text = res.headers.get("content-type")?.includes("event-stream")
                ? await readSse(res, 400)
                : await res.text();
              abort.abort();
              return { res, text };
            })()
          : await http(baseUrl, credential, {
              path: "/graphql",
              method: "POST",
              headers: headerOf,
              body: JSON.stringify(request),
            });
        const body = parse(raw);
        if (body?.error) return envelopeOutcome(res.status, raw, res.headers);
        const error = body?.errors?.[0];
        const value = body?.data?.[name];
        return {
          status: res.status,
          code: error?.extensions?.code ?? (value === null ? "NULL" : "OK"),
          message: error?.message ?? "",
          details: JSON.stringify(error?.extensions?.details ?? null),
          text: raw,
          replayed: res.headers.get("idempotent-replayed") === "true",
          body,
        };
      },
    };
  });
}

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
      if (!clients.has(credential)) clients.set(credential, httpClient(baseUrl, credential));
      const client = await clients.get(credential)!;
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

export function streamCases(baseUrl: string): Case[] {
  return Object.entries(STREAM_CALLS).map(([name, call]) => ({
    surface: "stream",
    name: `${name.split(" ")[0]} /v1${name.split(" ")[1]}`,
    scope: call.scope,
    write: !name.startsWith("GET"),
    pathIds: false,
    build: (ids) => call.request(ids),
    async send(credential, request, headers = {}) {
      const r = request as ReturnType<typeof call.request>;
      const { res, text } = await http(baseUrl, credential, {
        path: r.path,
        method: r.method,
        headers: { ...(r.body !== undefined ? { "Content-Type": "application/x-ndjson" } : {}), ...headers },
        body: r.body,
      });
      return envelopeOutcome(res.status, text, res.headers);
    },
  }));
}

export async function closeClients(): Promise<void> {
  for (const client of clients.values()) await (await client).close().catch(() => undefined);
  clients.clear();
}

/** Root fields of the served schema, by introspection. */
export async function graphqlRootFields(baseUrl: string, key: string): Promise<{ name: string; root: string }[]> {
  const query =
    "{ __schema { queryType { fields { name } } mutationType { fields { name } } " +
    "subscriptionType { fields { name } } } }";
  const { text } = await http(baseUrl, key, {
    path: "/graphql",
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const schema = parse(text)?.data?.__schema;
  if (!schema) throw new Error(`introspection failed: ${text.slice(0, 300)}`);
  return [
    ...schema.queryType.fields.map((f: { name: string }) => ({ name: f.name, root: "Query" })),
    ...(schema.mutationType?.fields ?? []).map((f: { name: string }) => ({ name: f.name, root: "Mutation" })),
    ...(schema.subscriptionType?.fields ?? []).map((f: { name: string }) => ({ name: f.name, root: "Subscription" })),
  ];
}

/** The tools tools/list offers a key. */
export async function mcpToolNames(baseUrl: string, key: string): Promise<string[]> {
  if (!clients.has(key)) clients.set(key, httpClient(baseUrl, key));
  const listed = await (await clients.get(key)!).listTools();
  return listed.tools.map((t) => t.name);
}

/** Every case of every surface, from the served schema and tool list. */
export async function allCases(baseUrl: string, fullKey: string): Promise<Case[]> {
  const fields = await graphqlRootFields(baseUrl, fullKey);
  const tools = await mcpToolNames(baseUrl, fullKey);
  return [
    ...restCases(baseUrl),
    ...graphqlCases(baseUrl, fields),
    ...mcpCases(baseUrl, tools),
    ...streamCases(baseUrl),
  ];
}

export { REST_INPUTS };
