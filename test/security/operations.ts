import { GRAPHQL_CALLS } from "./graphql-calls";
import { mcpCases, mcpResourceCases, mcpResourceTemplates, mcpToolNames } from "./mcp-cases";
import { envelopeOutcome, http, parse, type Case } from "./outcome";
import { REST_INPUTS, restRequest, restRoutes } from "./rest-calls";
import { STREAM_CALLS } from "./stream-calls";

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

/** Every case of every surface, from the served schema and tool list. */
export async function allCases(baseUrl: string, fullKey: string): Promise<Case[]> {
  const fields = await graphqlRootFields(baseUrl, fullKey);
  const tools = await mcpToolNames(baseUrl, fullKey);
  const templates = await mcpResourceTemplates(baseUrl, fullKey);
  return [
    ...restCases(baseUrl),
    ...graphqlCases(baseUrl, fields),
    ...mcpCases(baseUrl, tools),
    ...mcpResourceCases(baseUrl, templates),
    ...streamCases(baseUrl),
  ];
}

export { REST_INPUTS };

export type { Case, Outcome, Surface } from "./outcome";
export { closeClients, mcpResourceTemplates, mcpToolNames } from "./mcp-cases";
