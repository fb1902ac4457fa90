import fc from "fast-check";
import type { TSchema } from "@sinclair/typebox";
import { restRoutes } from "../../gateway/rest/routes";
import { MCP_TOOLS } from "../../gateway/mcp/tools";
import {
  accept,
  contentType,
  deepJson,
  idempotencyKey,
  nastyBody,
  nastyJson,
  nastyString,
  pathId,
  rawBody,
} from "./arbitraries";
import { type FuzzSession, webRequest } from "./web-requests";

const prototypeKey = fc.constantFrom("__proto__", "constructor", "prototype");

/**
 * A body whose one field (or that field's metadata) nests past any sane depth; written as text,
 * as no encoder would.
 */
const deepField = (fields: string[]) =>
  fc
    .record({ field: fc.constantFrom(...(fields.length ? fields : ["metadata"])), deep: deepJson, wrap: fc.boolean() })
    .map(({ field, deep, wrap }) => `{${JSON.stringify(field)}: ${wrap ? `{"metadata": ${deep}}` : deep}}`);

/** One request the fuzzer sends; `write` marks the ones that may change stored state. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  write: boolean;
  label: string;
  /** A write that honours its Idempotency-Key (a REST write, a GraphQL mutation): a success is replayed. */
  keyed?: boolean;
  /** Sent without the tenant's key (the browser routes, and /graphql with a session cookie). */
  anonymous?: boolean;
}

/** Ids of records that exist in the fuzzed tenant, so that some requests reach the code behind a found id. */
export interface Known {
  memories: string[];
  tags: string[];
  entities: string[];
  keys: string[];
}

const propertiesOf = (schema: TSchema): string[] => Object.keys((schema as { properties?: object }).properties ?? {});
const idsFor = (param: string, path: string, known: Known): string[] => {
  if (param === "tagId" || path.startsWith("/tags")) return known.tags;
  if (path.startsWith("/entities")) return param === "memoryId" ? known.memories : known.entities;
  if (path.startsWith("/keys")) return known.keys;
  return known.memories;
};

// The HTTP server refuses a request head over 16 KiB before the gateway sees it (documented), so URLs stay shorter.
const urlPart = nastyString.map((s) => s.slice(0, 1_500));
const queryString = (names: string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...(names.length ? names : ["limit"])), prototypeKey, urlPart), urlPart), {
      maxLength: 4,
    })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&")}` : ""));

/** Percent-encodes, but keeps a lone surrogate's bad bytes possible by falling back to a raw escape. */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return "%ED%A0%80";
  }
}

/** A request to one REST route, with its ids, query, body and headers fuzzed. */
function restRequest(known: Known): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...restRoutes).chain((route) => {
    const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const fields = propertiesOf(route.op.input);
    const hasBody = route.method === "POST" || route.method === "PATCH";
    return fc
      .record({
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constant(route.method) },
          fc.constantFrom("PUT", "OPTIONS", "HEAD"),
        ),
        ids: fc.tuple(...params.map((p) => pathId(idsFor(p, route.path, known)))),
        query: queryString(fields),
        body: hasBody
          ? fc.oneof(
              { weight: 5, arbitrary: nastyBody(fields).map((b) => JSON.stringify(b)) },
              { weight: 1, arbitrary: nastyJson.map((b) => JSON.stringify(b) ?? "null") },
              { weight: 2, arbitrary: rawBody },
              { weight: 1, arbitrary: deepField(fields) },
            )
          : fc.constant(undefined),
        type: contentType,
        accept,
        prefix: fc.constantFrom("/v1", "/v1", "/api/v1"),
        key: idempotencyKey,
      })
      .map(({ method, ids, query, body, type, accept, prefix, key }) => {
        let i = 0;
        const path = route.path.replace(/:(\w+)/g, () => enc(String(ids[i++] ?? "")));
        const headers: Record<string, string> = {};
        if (type) headers["content-type"] = type;
        if (accept) headers.accept = accept;
        if (key !== undefined && method !== "GET") headers["idempotency-key"] = key;
        const sendsBody = body !== undefined && method !== "HEAD" && method !== "GET";
        return {
          method,
          path: prefix + path + (route.method === "GET" || route.method === "DELETE" ? query : ""),
          headers,
          body: sendsBody ? body : undefined,
          write: method !== "GET" && method !== "HEAD" && method !== "OPTIONS",
          keyed: headers["idempotency-key"] !== undefined,
          label: `${route.method} ${route.path}`,
        };
      });
  });
}

/** GraphQL documents of every root field, with fuzzed variables, and broken documents. */
const GRAPHQL_DOCUMENTS: { query: string; write: boolean; vars: string[] }[] = [
  { query: "query($id: ID!) { memory(id: $id) { id content tags { id name } } }", write: false, vars: ["id"] },
  {
    query: "query($f: MemoryFilter, $l: Int, $o: Int) { memories(filter: $f, limit: $l, offset: $o) { total } }",
    write: false,
    vars: ["f", "l", "o"],
  },
  { query: "query($s: String, $l: Int) { tags(search: $s, limit: $l) { total } }", write: false, vars: ["s", "l"] },
  { query: "query($s: String) { entities(search: $s) { total } }", write: false, vars: ["s"] },
  { query: "query($i: SearchInput!) { search(input: $i) { results { id } } }", write: false, vars: ["i"] },
  { query: "query($i: ContextInput!) { context(input: $i) { __typename } }", write: false, vars: ["i"] },
  { query: "query { keys { total } }", write: false, vars: [] },
  { query: "mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id } }", write: true, vars: ["i"] },
  {
    query: "mutation($id: ID!, $i: UpdateMemoryInput!) { updateMemory(id: $id, input: $i) { id } }",
    write: true,
    vars: ["id", "i"],
  },
  { query: "mutation($i: CreateTagInput!) { createTag(input: $i) { id } }", write: true, vars: ["i"] },
  {
    query: "mutation($m: ID!, $t: [ID!]!) { attachTags(memoryId: $m, tagIds: $t) { __typename } }",
    write: true,
    vars: ["m", "t"],
  },
  { query: "mutation($i: CreateEntityInput!) { createEntity(input: $i) { id } }", write: true, vars: ["i"] },
  { query: "mutation($i: CreateKeyInput!) { createKey(input: $i) { __typename } }", write: true, vars: ["i"] },
  { query: "mutation($id: ID!) { deleteTag(id: $id) { __typename } }", write: true, vars: ["id"] },
];

const brokenDocument = fc.oneof(
  nastyString,
  fc.integer({ min: 2, max: 130 }).map((levels) => {
    const parts = ["fragment F1 on Query { __typename }"];
    for (let i = 2; i <= levels; i++) parts.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} ...F${i - 1} }`);
    return `query { ...F${levels} } ${parts.join(" ")}`;
  }),
  fc.integer({ min: 1, max: 300 }).map((d) => `query { ${"memories { items { ".repeat(d)}id${" } }".repeat(d)} }`),
  fc
    .integer({ min: 1, max: 500 })
    .map((n) => `query { ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(" ")} }`),
  fc.constant("subscription { memoryEvents { type } }"),
  fc.constant("query { __schema { types { name } } }"),
);

function graphqlRequest(known: Known): fc.Arbitrary<FuzzRequest> {
  const anyId = [...known.memories, ...known.tags, ...known.entities];
  const variable = fc.oneof(
    nastyJson,
    anyId.length ? fc.constantFrom(...anyId) : fc.uuid(),
    nastyBody([
      "content",
      "name",
      "query",
      "limit",
      "threshold",
      "tier",
      "tags",
      "metadata",
      "scopes",
      "rate_limit",
      "plan",
    ]),
  );
  return fc
    .record({
      doc: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...GRAPHQL_DOCUMENTS) }, fc.constant(null)),
      broken: brokenDocument,
      values: fc.array(variable, { maxLength: 3 }),
      raw: fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        rawBody,
        deepJson.map(
          (deep) =>
            `{"query": "query($i: SearchInput!) { search(input: $i) { results { id } } }", ` +
            `"variables": {"i": {"query": "x", "filter": {"metadata": ${deep}}}}}`,
        ),
      ),
      batch: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true)),
      accept,
      method: fc.oneof({ weight: 9, arbitrary: fc.constant("POST") }, fc.constantFrom("GET", "PUT")),
      key: idempotencyKey,
    })
    .map(({ doc, broken, values, raw, batch, accept, method, key }) => {
      const query = doc?.query ?? broken;
      const variables = Object.fromEntries((doc?.vars ?? []).map((v, i) => [v, values[i]]));
      const payload = { query, variables };
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (accept) headers.accept = accept;
      if (method === "GET") {
        const qs = `query=${enc(query.slice(0, 2_000))}&variables=${enc(JSON.stringify(variables).slice(0, 2_000))}`;
        return { method, path: `/graphql?${qs}`, headers, write: false, label: "GET /graphql" };
      }
      if (key !== undefined) headers["idempotency-key"] = key;
      const body = raw ?? JSON.stringify(batch ? [payload, payload] : payload);
      const keyed = key !== undefined && doc?.write === true && raw === undefined;
      return { method, path: "/graphql", headers, body, write: doc?.write ?? true, keyed, label: "POST /graphql" };
    });
}

const MCP_ACCEPT = "application/json, text/event-stream";

/** A JSON-RPC message to the MCP endpoint: tool calls with hostile arguments, resource reads, nonsense. */
function mcpRequest(known: Known): fc.Arbitrary<FuzzRequest> {
  const ids = [...known.memories, ...known.tags, ...known.entities];
  const toolCall = fc
    .record({
      tool: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...MCP_TOOLS) }, fc.constant(null)),
      name: nastyString,
      args: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, nastyJson),
      seed: fc.record({ id: ids.length ? fc.constantFrom(...ids) : fc.uuid(), fields: fc.nat() }),
    })
    .chain(({ tool, name, args, seed }) =>
      (tool ? nastyBody(Object.keys((tool.input as { properties?: object }).properties ?? {})) : fc.constant({})).map(
        (body) => ({
          params: {
            name: tool?.name ?? name,
            arguments: args ?? { ...body, ...(seed.fields % 2 ? { id: seed.id } : {}) },
          },
          write: tool ? !tool.readOnly : false,
        }),
      ),
    );
  const other = fc.record({
    method: fc.oneof(
      fc.constantFrom("tools/list", "resources/list", "resources/templates/list", "initialize", "ping"),
      nastyString,
    ),
    params: fc.oneof(
      fc.constant(undefined),
      (ids.length ? fc.constantFrom(...ids) : fc.uuid()).map((id) => ({ uri: `memory://${id}` })),
      urlPart.map((uri) => ({ uri })),
      nastyJson,
    ),
  });
  return fc
    .record({
      message: fc.oneof(
        { weight: 3, arbitrary: toolCall.map((c) => ({ method: "tools/call", params: c.params, write: c.write })) },
        other.map((o) => ({ ...o, write: false })),
      ),
      id: fc.oneof({ weight: 4, arbitrary: fc.nat() }, fc.constant(undefined), nastyJson),
      raw: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, rawBody),
      accept: fc.oneof({ weight: 6, arbitrary: fc.constant(MCP_ACCEPT) }, accept),
    })
    .map(({ message, id, raw, accept }) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (accept) headers.accept = accept;
      const body = raw ?? JSON.stringify({ jsonrpc: "2.0", id, method: message.method, params: message.params });
      return {
        method: "POST",
        path: "/mcp",
        headers,
        body,
        write: message.write || raw !== undefined,
        label: "POST /mcp",
      };
    });
}

/**
 * The routes that stream (rest/routes.ts leaves them out): an export from a hostile cursor and limit, an import of
 * any bytes, an erase with a confirmation that never names the fuzzed tenant.
 */
function streamRequest(): fc.Arbitrary<FuzzRequest> {
  const exportRequest = fc
    .record({ cursor: fc.option(urlPart), limit: fc.option(urlPart), accept })
    .map(({ cursor, limit, accept }): FuzzRequest => {
      const query = [cursor === null ? "" : `cursor=${enc(cursor)}`, limit === null ? "" : `limit=${enc(limit)}`];
      const qs = query.filter(Boolean).join("&");
      return {
        method: "GET",
        path: `/v1/export${qs ? `?${qs}` : ""}`,
        headers: accept ? { accept } : {},
        write: false,
        label: "GET /export",
      };
    });
  const importRequest = fc
    .record({
      body: fc.oneof(
        rawBody,
        nastyJson.map((j) => JSON.stringify(j) ?? "null"),
        nastyString,
      ),
      type: fc.constantFrom("application/x-ndjson", "application/json", "text/plain", ""),
      key: idempotencyKey,
    })
    .map(({ body, type, key }): FuzzRequest => {
      const headers: Record<string, string> = {};
      if (type) headers["content-type"] = type;
      if (key !== undefined) headers["idempotency-key"] = key;
      const keyed = key !== undefined;
      return { method: "POST", path: "/v1/import", headers, body, write: true, keyed, label: "POST /import" };
    });
  const eraseRequest = fc
    .record({ confirm: fc.oneof(nastyJson, nastyString), inQuery: fc.boolean() })
    .map(({ confirm, inQuery }): FuzzRequest => {
      const text = typeof confirm === "string" ? confirm : (JSON.stringify(confirm) ?? "");
      const body = JSON.stringify({ confirm });
      return inQuery
        ? {
            method: "DELETE",
            path: `/v1/tenant?confirm=${enc(text.slice(0, 1_500))}`,
            headers: {},
            write: true,
            label: "DELETE /tenant",
          }
        : {
            method: "DELETE",
            path: "/v1/tenant",
            headers: { "content-type": "application/json" },
            body,
            write: true,
            label: "DELETE /tenant",
          };
    });
  return fc.oneof(exportRequest, importRequest, eraseRequest);
}

/** A request to a REST route, the GraphQL or MCP endpoint, a browser route, or a path that does not exist. */
export function fuzzRequest(known: Known, session: FuzzSession): fc.Arbitrary<FuzzRequest> {
  const stray = fc.record({ path: urlPart, method: fc.constantFrom("GET", "POST", "DELETE", "PATCH") }).map(
    ({ path, method }): FuzzRequest => ({
      method,
      path: `/v1/${enc(path)}`,
      headers: {},
      write: method !== "GET",
      label: "stray path",
    }),
  );
  return fc.oneof(
    { weight: 10, arbitrary: restRequest(known) },
    { weight: 4, arbitrary: graphqlRequest(known) },
    { weight: 2, arbitrary: mcpRequest(known) },
    { weight: 3, arbitrary: webRequest(session) },
    streamRequest(),
    stray,
  );
}
