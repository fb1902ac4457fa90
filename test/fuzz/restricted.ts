import fc from "fast-check";
import type { ApiClient } from "../api";
import { IDEMPOTENCY_POOL, nastyString } from "./arbitraries";
import type { FuzzRequest, Known } from "./requests";

/**
 * The fuzzer's restricted runs: a browser token of user A sends the requests, in a tenant where user B's memories
 * sit where walks and links cross (B below A, A below B, supersessions both ways, shared tags and entities), and
 * nothing of B may change or show. Every restriction kind is one run.
 */
export type RestrictionKind = "metadata" | "subtree" | "tags";
export const RESTRICTION_KINDS: RestrictionKind[] = ["metadata", "subtree", "tags"];

/** What only user B's memories say: an answer holding it leaked. */
export const OUTSIDE_SECRET = "SECRET-of-user-B";

export interface RestrictedSeed {
  known: Known;
  /** The token of user A the run sends with. */
  token: string;
  /** User B's memories, B's own tag and the entity linked on both sides: none may change. */
  outside: { memories: string[]; tag: string; entity: string };
  /** A's ids, which answers may show. */
  inside: string[];
  /** Whether a memory (as the key reads it) is inside A's restriction, given every memory by id. */
  isInside(m: Memory, all: Map<string, Memory>): boolean;
  /** External ids and contents the aimed requests use. */
  externalIds: string[];
}

interface Memory {
  id: string;
  parent_memory_id: string | null;
  metadata: Record<string, unknown>;
  tags: { id: string }[];
}

const A = "u_a";
const B = "u_b";

/**
 * Seeds the tenant through its key and mints A's token for `kind`. B's keyed writes go first, with the fuzzer's
 * Idempotency-Keys, so a replay across principals would hand A B's answer.
 */
export async function seedRestricted(baseUrl: string, api: ApiClient, kind: RestrictionKind): Promise<RestrictedSeed> {
  const ok = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    if (r.status !== 200) throw new Error(`seeding failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const tagA = (await ok(api.post("/v1/tags", { name: "tag-of-a" }))).id as string;
  const tagB = (await ok(api.post("/v1/tags", { name: "tag-of-b" }))).id as string;
  const shared = (await ok(api.post("/v1/tags", { name: "tag-shared" }))).id as string;
  const inside: string[] = [];
  const outside: string[] = [];
  const create = async (user: string, body: Record<string, unknown>) => {
    const secret = user === B ? ` ${OUTSIDE_SECRET}` : "";
    const memory = await ok(
      api.post("/v1/memories", { ...body, content: `${body.content}${secret}`, metadata: { user_id: user } }),
    );
    (user === A ? inside : outside).push(memory.id);
    await ok(api.post(`/v1/memories/${memory.id}/tags`, { tag_ids: [user === A ? tagA : tagB, shared] }));
    return memory.id as string;
  };
  const rootA = await create(A, { content: "root of a", external_id: "ext-a" });
  const rootB = await create(B, { content: "root of b", external_id: "ext-b" });
  // In a subtree restriction what lies below A's root is inside, whoever it names: B's memories sit elsewhere.
  const belowA = kind === "subtree" ? rootB : rootA;
  await create(A, { content: "reply of a", parent_memory_id: rootA });
  await create(B, { content: "reply of b in a thread of a", parent_memory_id: belowA });
  await create(A, { content: "reply of a in a thread of b", parent_memory_id: kind === "subtree" ? rootA : rootB });
  await create(B, { content: "reply of b", parent_memory_id: rootB });
  // Supersessions both ways: A's fact replaced by B's, B's fact replaced by A's.
  const factA = await create(A, { content: "fact of a", parent_memory_id: rootA });
  await create(B, { content: "correction by b", parent_memory_id: rootB, supersedes: factA });
  const factB = await create(B, { content: "fact of b", parent_memory_id: rootB });
  await create(A, { content: "correction by a", parent_memory_id: rootA, supersedes: factB });
  const entity = (await ok(api.post("/v1/entities", { name: "Shared Co", type: "organization" }))).id as string;
  await ok(api.post(`/v1/entities/${entity}/memories`, { memory_ids: [...inside, ...outside] }));
  const entityA = (await ok(api.post("/v1/entities", { name: "A Co", type: "organization" }))).id as string;
  await ok(api.post(`/v1/entities/${entityA}/memories`, { memory_ids: inside }));

  const restrict =
    kind === "metadata"
      ? { metadata: { user_id: A } }
      : kind === "subtree"
        ? { root_memory_id: rootA }
        : { tag_ids: [tagA] };
  const mint = async (r: object) =>
    (await ok(api.post("/v1/tokens", { scopes: ["memories:read", "memories:write", "search:read"], restrict: r })))
      .token as string;
  const tokenB = await mint(kind === "tags" ? { tag_ids: [tagB] } : { metadata: { user_id: B } });
  // B's writes with the pool's keys, by the key and by B's token: an answer A must never be replayed.
  for (const [i, key] of IDEMPOTENCY_POOL.entries()) {
    const target = outside[i % outside.length]!;
    await api.raw("PATCH", `/v1/memories/${target}`, {}, { "idempotency-key": key });
    await fetch(`${baseUrl}/v1/memories/${outside[(i + 1) % outside.length]}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${tokenB}`, "content-type": "application/json", "idempotency-key": key },
      body: "{}",
    });
  }
  const isInside = (m: Memory, all: Map<string, Memory>): boolean => {
    if (kind === "metadata") return m.metadata.user_id === A;
    if (kind === "tags") return m.tags.some((t) => t.id === tagA);
    for (let at: Memory | undefined = m, hops = 0; at && hops < 70; at = all.get(at.parent_memory_id ?? ""), hops++)
      if (at.id === rootA) return true;
    return false;
  };
  return {
    known: { memories: [...inside, ...outside], tags: [tagA, tagB, shared], entities: [entity, entityA], keys: [] },
    token: await mint(restrict),
    outside: { memories: outside, tag: tagB, entity },
    inside,
    isInside,
    externalIds: ["ext-a", "ext-b", "ext-new"],
  };
}

/** B's memories, B's tag and the shared entity as the key reads them, as one comparable string. */
export async function outsideSnapshot(api: ApiClient, seed: RestrictedSeed): Promise<string> {
  const { memories, tag, entity } = seed.outside;
  const reads = await Promise.all([
    ...memories.map((id) => api.get(`/v1/memories/${id}`)),
    api.get(`/v1/tags/${tag}`),
    api.get(`/v1/entities/${entity}`),
  ]);
  return JSON.stringify(
    reads.map((r) => {
      const data = r.body?.data;
      // A's own links move counts legitimately; the records themselves must not change.
      if (data && "memory_count" in data) return { ...data, memory_count: undefined, updated_at: undefined };
      return [r.status, data];
    }),
  );
}

/**
 * A broken promise of an answer to A's token: B's content, or an id of B's that the request did not name.
 */
export function outsideLeak(seed: RestrictedSeed, req: FuzzRequest, text: string): string | null {
  if (text.includes(OUTSIDE_SECRET)) return `an answer shows user B's content: ${text.slice(0, 300)}`;
  const sent = `${req.path} ${typeof req.body === "string" ? req.body : ""}`;
  const named = seed.outside.memories.find((id) => text.includes(id) && !sent.includes(id));
  return named ? `an answer names user B's memory ${named}: ${text.slice(0, 300)}` : null;
}

/**
 * Well-formed requests aimed where the restriction matters: writes and reads naming A's and B's memories as
 * parents, supersessions, link ends and external ids, on REST, GraphQL and MCP, some with the pool's keys.
 */
export function aimedRequest(seed: RestrictedSeed): fc.Arbitrary<FuzzRequest> {
  const id = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...seed.known.memories) }, fc.uuid());
  const tag = fc.constantFrom(...seed.known.tags);
  const entity = fc.constantFrom(...seed.known.entities);
  const user = fc.constantFrom(A, B);
  const memoryBody = fc.record(
    {
      content: fc.oneof(
        fc.constant("new memory"),
        nastyString.map((s) => s.slice(0, 200) || "x"),
      ),
      parent_memory_id: fc.option(id, { nil: undefined }),
      supersedes: id,
      external_id: fc.constantFrom(...seed.externalIds),
      metadata: user.map((u) => ({ user_id: u })),
    },
    { requiredKeys: ["content"] },
  );
  const json = (method: string, path: string, body?: unknown, label = `${method} ${path.split("?")[0]}`) =>
    ({ method, path, body: body === undefined ? undefined : JSON.stringify(body), label }) as const;
  const rest = fc.oneof(
    memoryBody.map((b) => json("POST", "/v1/memories", b)),
    fc.array(memoryBody, { minLength: 1, maxLength: 3 }).map((items) => json("POST", "/v1/memories/batch", { items })),
    fc
      .record({
        id,
        patch: fc.record({ parent_memory_id: fc.option(id), metadata: user.map((u) => ({ user_id: u })) }),
      })
      .chain(({ id, patch }) =>
        fc.subarray(Object.keys(patch)).map((keys) => {
          const body = Object.fromEntries(keys.map((k) => [k, patch[k as keyof typeof patch]]));
          return json("PATCH", `/v1/memories/${id}`, body, "PATCH /v1/memories/:id");
        }),
      ),
    fc
      .record({ id, cascade: fc.boolean() })
      .map(({ id, cascade }) =>
        json("DELETE", `/v1/memories/${id}?cascade=${cascade}`, undefined, "DELETE /v1/memories/:id"),
      ),
    id.map((id) => json("GET", `/v1/memories/${id}`, undefined, "GET /v1/memories/:id")),
    fc
      .record({
        parent: fc.option(id),
        tag: fc.option(tag),
        entity: fc.option(entity),
        ext: fc.option(fc.constantFrom(...seed.externalIds)),
      })
      .map((q) => {
        const p = new URLSearchParams({ limit: "50" });
        if (q.parent) p.set("parent_memory_id", q.parent);
        if (q.tag) p.set("tag_id", q.tag);
        if (q.entity) p.set("entity_id", q.entity);
        if (q.ext) p.set("external_id", q.ext);
        return json("GET", `/v1/memories?${p}`, undefined, "GET /v1/memories");
      }),
    fc
      .record({ id, tag })
      .map(({ id, tag }) => json("POST", `/v1/memories/${id}/tags`, { tag_ids: [tag] }, "POST /v1/memories/:id/tags")),
    fc.record({ id, tag }).map(({ id, tag }) => json("DELETE", `/v1/memories/${id}/tags/${tag}`, undefined, "detach")),
    tag.map((t) => json("PATCH", `/v1/tags/${t}`, { name: `renamed-${t.slice(0, 6)}` }, "PATCH /v1/tags/:id")),
    tag.map((t) => json("DELETE", `/v1/tags/${t}`, undefined, "DELETE /v1/tags/:id")),
    tag.map((t) => json("GET", `/v1/tags/${t}`, undefined, "GET /v1/tags/:id")),
    fc
      .record({ ids: fc.array(id, { minLength: 1, maxLength: 3 }) })
      .map(({ ids }) =>
        json("POST", "/v1/entities", { name: `E ${ids[0]!.slice(0, 8)}`, type: "concept", memory_ids: ids }),
      ),
    fc
      .record({ e: entity, ids: fc.array(id, { minLength: 1, maxLength: 3 }) })
      .map(({ e, ids }) =>
        json("POST", `/v1/entities/${e}/memories`, { memory_ids: ids }, "POST /v1/entities/:id/memories"),
      ),
    fc
      .record({ e: entity, id })
      .map(({ e, id }) => json("DELETE", `/v1/entities/${e}/memories/${id}`, undefined, "unlink")),
    entity.map((e) => json("PATCH", `/v1/entities/${e}`, { description: "changed" }, "PATCH /v1/entities/:id")),
    entity.map((e) => json("DELETE", `/v1/entities/${e}`, undefined, "DELETE /v1/entities/:id")),
    fc
      .constantFrom("fact", "reply", "correction", "SECRET")
      .map((q) => json("POST", "/v1/search", { query: q, limit: 20 })),
    fc
      .record({ q: fc.constantFrom("fact", "reply"), id })
      .map(({ q, id }) => json("POST", "/v1/context", { query: q, memory_id: id })),
    // B's keyed request as it was sent: only a replay across principals would answer it.
    fc
      .constantFrom(...seed.outside.memories)
      .map((target) => json("PATCH", `/v1/memories/${target}`, {}, "replay probe")),
  );
  const walk = "id content supersedes { id content } supersededBy { id content } parent { id content }";
  const gql = (query: string, variables: Record<string, unknown>) =>
    json("POST", "/graphql", { query, variables }, "POST /graphql");
  const graphql = fc.oneof(
    id.map((id) =>
      gql(`query($id: ID!) { memory(id: $id) { ${walk} children(limit: 20) { items { id content } } } }`, { id }),
    ),
    memoryBody.map((b) =>
      gql("mutation($i: CreateMemoryInput!) { createMemory(input: $i) { id supersedes { id } } }", {
        i: { content: b.content, parentMemoryId: b.parent_memory_id, supersedes: b.supersedes, metadata: b.metadata },
      }),
    ),
    id.map((id) => gql("mutation($id: ID!) { deleteMemory(id: $id) { __typename } }", { id })),
    tag.map((id) => gql("mutation($id: ID!) { deleteTag(id: $id) { __typename } }", { id })),
    tag.map((id) =>
      gql(`query($id: ID!) { tag(id: $id) { memoryCount memories(limit: 50) { total items { ${walk} } } } }`, { id }),
    ),
    entity.map((id) =>
      gql(`query($id: ID!) { entity(id: $id) { memories(limit: 50) { total items { ${walk} } } } }`, { id }),
    ),
  );
  const tool = (name: string, args: Record<string, unknown>) =>
    json(
      "POST",
      "/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
      `mcp ${name}`,
    );
  const mcp = fc.oneof(
    memoryBody.map((b) => tool("remember", b)),
    id.map((id) => tool("get_memory", { id })),
    id.map((id) => tool("forget", { id })),
    id.map((id) => tool("tag_memory", { id, tags: ["tag-of-b", "tag-shared"] })),
    fc.constantFrom("fact", "SECRET").map((query) => tool("recall", { query })),
  );
  return fc
    .record({
      req: fc.oneof({ weight: 5, arbitrary: rest }, { weight: 2, arbitrary: graphql }, mcp),
      // Mostly none: the pool's keys meet other requests, and their 422s would stop the aimed writes early.
      key: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, fc.constantFrom(...IDEMPOTENCY_POOL)),
    })
    .map(({ req, key }): FuzzRequest => {
      const write =
        req.method !== "GET" && req.label !== "POST /v1/search" && !req.label.startsWith("POST /v1/context");
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (req.path === "/mcp") headers.accept = "application/json, text/event-stream";
      const keyed = (key !== null && write && req.path !== "/mcp") || req.label === "replay probe";
      if (keyed) headers["idempotency-key"] = key ?? IDEMPOTENCY_POOL[0]!;
      return { method: req.method, path: req.path, headers, body: req.body, write, keyed, label: req.label };
    });
}

/** Every memory of the tenant, as the key reads them. */
export async function allMemories(api: ApiClient): Promise<Map<string, Memory>> {
  const all = new Map<string, Memory>();
  for (let offset = 0; ; offset += 100) {
    const page = await api.get(`/v1/memories?limit=100&offset=${offset}&sort=created_at&order=asc`);
    const items = (page.body?.data ?? []) as Memory[];
    for (const m of items) all.set(m.id, m);
    if (items.length < 100) return all;
  }
}

/** Memories A's token wrote that are not inside A: none may be. */
export async function writtenOutside(api: ApiClient, seed: RestrictedSeed): Promise<string[]> {
  const all = await allMemories(api);
  const seeded = new Set([...seed.inside, ...seed.outside.memories]);
  return [...all.values()].filter((m) => !seeded.has(m.id) && !seed.isInside(m, all)).map((m) => m.id);
}
