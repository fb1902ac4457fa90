import { expect } from "bun:test";
import { ClientError, GraphQLClient } from "graphql-request";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../harness";
import { newTenant } from "../api";

/** Shared by the graphql*.test.ts files: a real GraphQL client (graphql-request) against the test stack. */
export interface GqlError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; request_id: string; details?: Record<string, unknown> };
}

export interface GqlResponse<T = any> {
  status: number;
  data: T | null | undefined;
  errors: GqlError[] | undefined;
  headers: Headers;
  /** The parsed body when it is not a GraphQL result (REST's envelope on 401/429). */
  body: any;
}

export function gqlClient(baseUrl: string, key?: string) {
  const client = new GraphQLClient(`${baseUrl}/graphql`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  /** Any outcome, errors included, as one value. */
  const raw = async <T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GqlResponse<T>> => {
    try {
      const r = await client.rawRequest<T>(query, variables, headers);
      return {
        status: r.status,
        data: r.data,
        errors: r.errors as GqlError[] | undefined,
        headers: r.headers,
        body: undefined,
      };
    } catch (err) {
      if (!(err instanceof ClientError)) throw err;
      const res = err.response as unknown as {
        status: number;
        data?: T;
        errors?: GqlError[];
        headers: Headers;
        body?: string;
      };
      let body: any = res.body;
      try {
        body = typeof res.body === "string" ? JSON.parse(res.body) : res.body;
      } catch {
        /* keep text */
      }
      return {
        status: res.status,
        data: res.data ?? body?.data,
        errors: res.errors ?? body?.errors,
        headers: res.headers instanceof Headers ? res.headers : new Headers(res.headers as never),
        body,
      };
    }
  };
  /** The data of a query that must succeed. */
  const request = async <T = any>(query: string, variables?: Record<string, unknown>): Promise<T> => {
    const r = await raw<T>(query, variables);
    if (r.errors?.length || r.status !== 200)
      throw new Error(`GraphQL failed (${r.status}): ${JSON.stringify(r.errors ?? r.body)}`);
    return r.data as T;
  };
  return { request, raw, client };
}

export type Gql = ReturnType<typeof gqlClient>;

/** A fresh tenant with a REST client (`api`) and a GraphQL client (`gql`) on the same key. */
export async function gqlTenant(opts: Parameters<typeof newTenant>[2] = {}) {
  const stack = await testStack();
  const t = await newTenant(stack.baseUrl, stack.adminKey, opts);
  return { ...t, gql: gqlClient(stack.baseUrl, t.key) };
}

/** The one error of a response, checked in full: code, message, details and the request id. */
export function expectGqlError(
  r: GqlResponse,
  code: string,
  message: string,
  details?: Record<string, unknown>,
  path?: (string | number)[],
) {
  expect(r.errors?.length).toBe(1);
  const e = r.errors![0]!;
  expect({ code: e.extensions.code, message: e.message, details: e.extensions.details }).toEqual({
    code,
    message,
    details,
  });
  if (path) expect(e.path).toEqual(path);
  expect(e.extensions.request_id).toBe(r.headers.get("x-request-id")!);
}

/**
 * Not operations a query makes: the guard's key lookup, and usage batches
 * (JetStream publishes carry a reply subject).
 */
const NOT_QUERY_OPS = new Set(["keys.verify", "usage.batch"]);

/** Counts the requests sent to contract operations (not replies, not events) while `fn` runs. */
export async function countOpRequests(
  fn: () => Promise<unknown>,
  prefixes = ["memories.", "tags.", "entities.", "keys.", "usage.", "search."],
) {
  const nc: NatsConnection = await connect({ servers: (await testStack()).natsUrl.split(",") });
  const counts = new Map<string, number>();
  const sub = nc.subscribe(">", {
    callback: (_err, msg) => {
      if (!msg.reply || NOT_QUERY_OPS.has(msg.subject) || !prefixes.some((p) => msg.subject.startsWith(p))) return;
      counts.set(msg.subject, (counts.get(msg.subject) ?? 0) + 1);
    },
  });
  await nc.flush();
  try {
    await fn();
    await Bun.sleep(50); // let the last messages reach this connection
    await nc.flush();
  } finally {
    sub.unsubscribe();
    await nc.close();
  }
  return { total: [...counts.values()].reduce((a, b) => a + b, 0), bySubject: Object.fromEntries(counts) };
}

export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/**
 * A query of `levels` nested fragments, each spreading the one before three times: 3^129 copies of
 * `__typename` at 130 levels, in ~6 KB and 1,430 tokens. `tag` names the fragments, so that each
 * document is new to the gateway's parse and validation caches.
 */
export function fanOutQuery(levels: number, tag = "F") {
  let fragments = `fragment ${tag}1 on Query { __typename }\n`;
  for (let i = 2; i <= levels; i++) fragments += `fragment ${tag}${i} on Query { ${`...${tag}${i - 1} `.repeat(3)}}\n`;
  return `query { ...${tag}${levels} }\n${fragments}`;
}

/** GraphQL enum name of a contract value, as the schema spells it. */
export const E = (value: string) => (value === "*" ? "ALL" : value.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase());

const ENUM_FIELDS = new Set(["contentType", "tier", "memoryNature", "type", "scopes", "plan", "environment", "role"]);
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const enumValue = (v: string) =>
  v === "ALL"
    ? "*"
    : v === "MEMORIES_READ"
      ? "memories:read"
      : v === "MEMORIES_WRITE"
        ? "memories:write"
        : v === "SEARCH_READ"
          ? "search:read"
          : v.toLowerCase();

/** GraphQL data spelled as REST spells it: snake_case keys, contract enum values; metadata untouched. */
export function toRest(value: any, key = ""): any {
  if (Array.isArray(value)) return value.map((v) => toRest(v, key));
  if (value === null || typeof value !== "object")
    return ENUM_FIELDS.has(key) && typeof value === "string" ? enumValue(value) : value;
  if (key === "metadata") return value; // client JSON: keys as sent
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), toRest(v, k)]));
}

/** Every scalar field of a memory, a tag and an entity, for selections that read the whole record. */
export const MEMORY_FIELDS =
  "id content contentType tier memoryNature parentMemoryId externalId metadata entityIds createdAt updatedAt";
export const TAG_FIELDS = `id name color description memoryCount createdAt updatedAt`;
export const ENTITY_FIELDS = `id name type description metadata memoryCount createdAt updatedAt`;

/** createMemory through GraphQL; answers every scalar field. */
export const createMemoryWith = async (gql: Gql, input: Record<string, unknown>) =>
  (
    await gql.request(`mutation($input: CreateMemoryInput!) { createMemory(input: $input) { ${MEMORY_FIELDS} } }`, {
      input,
    })
  ).createMemory;

/** createTag through GraphQL; answers every scalar field. */
export const createTagWith = async (gql: Gql, input: Record<string, unknown>) =>
  (await gql.request(`mutation($input: CreateTagInput!) { createTag(input: $input) { ${TAG_FIELDS} } }`, { input }))
    .createTag;
