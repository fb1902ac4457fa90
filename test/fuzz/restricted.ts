import fc from "fast-check";
import { apiClient, type ApiClient } from "../api";
import { leaks } from "../security/answer-checks";
import { A, B, ok, seedWorld, type Kind, type World } from "../security/seed";
import { changes, outsideIds, snapshot } from "../security/snapshot";
import { IDEMPOTENCY_POOL, nastyString } from "./arbitraries";
import type { FuzzRequest, Known } from "./requests";

/**
 * The fuzzer's restricted runs: a browser token of user A sends the requests, in a tenant where user B's memories
 * sit where walks and links cross (B below A, A below B, supersessions both ways, shared tags and entities), and
 * nothing of B may change or show. Every restriction kind is one run. The world and its checks are the security
 * test's (test/security/seed.ts, snapshot.ts, answer-checks.ts).
 */
export { KINDS as RESTRICTION_KINDS, type Kind as RestrictionKind } from "../security/seed";

export interface RestrictedSeed {
  /** Both users' tags, entities, roots and tokens: the run sends with `world.tokenA`. */
  world: World;
  known: Known;
  /** User B's memories as seeded, whose keyed writes A's token must never be replayed. */
  outside: string[];
  /** External ids and contents the aimed requests use. */
  externalIds: string[];
}

/**
 * Seeds the tenant through its key: a world of test/security/seed.ts, and more memories where links cross. B's
 * keyed writes go before the run, with the fuzzer's Idempotency-Keys: a replay across principals would hand A
 * B's answer.
 */
export async function seedRestricted(baseUrl: string, api: ApiClient, kind: Kind): Promise<RestrictedSeed> {
  const world = await seedWorld(api, kind);
  const { rootA, rootB, tags, entities } = world;
  const inside = [rootA];
  const outside = [rootB];
  const create = async (user: string, body: Record<string, unknown>) => {
    const id = await world.create(user, body, true);
    (user === A ? inside : outside).push(id);
    return id;
  };
  // In a subtree restriction what lies below A's root is inside, whoever it names: B's memories sit elsewhere.
  await create(A, { content: "reply of a", parent_memory_id: rootA });
  await create(B, { content: "reply of b in a thread of a", parent_memory_id: kind === "subtree" ? rootB : rootA });
  await create(A, { content: "reply of a in a thread of b", parent_memory_id: kind === "subtree" ? rootA : rootB });
  await create(B, { content: "reply of b", parent_memory_id: rootB });
  // Supersessions both ways: A's fact replaced by B's, B's fact replaced by A's.
  const factA = await create(A, { content: "fact of a", parent_memory_id: rootA });
  await create(B, { content: "correction by b", parent_memory_id: rootB, supersedes: factA });
  const factB = await create(B, { content: "fact of b", parent_memory_id: rootB });
  await create(A, { content: "correction by a", parent_memory_id: rootA, supersedes: factB });
  await ok(api.post(`/v1/entities/${entities.shared}/memories`, { memory_ids: [...inside, ...outside] }));
  // B's writes with the pool's keys, by the key and by B's token: an answer A must never be replayed.
  const tokenB = apiClient(baseUrl, world.tokenB);
  for (const [i, key] of IDEMPOTENCY_POOL.entries()) {
    await api.raw("PATCH", `/v1/memories/${outside[i % outside.length]}`, {}, { "idempotency-key": key });
    await tokenB.raw("PATCH", `/v1/memories/${outside[(i + 1) % outside.length]}`, {}, { "idempotency-key": key });
  }
  return {
    world,
    known: {
      memories: [...inside, ...outside],
      tags: [tags.a, tags.b, tags.shared],
      entities: [entities.shared, entities.a, entities.b],
      keys: [],
    },
    outside,
    externalIds: ["ext-a", "ext-b", "ext-new"],
  };
}

/**
 * The security test's checks over a run, from a snapshot of the tenant as its key reads it: what an answer shows
 * of B (B's content, B's ids or external ids the request did not send), and after a write how B's data changed or
 * A's writes left A (`changes`).
 */
export async function outsideWatch(seed: RestrictedSeed) {
  const { world } = seed;
  let before = await snapshot(world.api);
  let outside = outsideIds(world, before);
  return {
    leaks: (req: FuzzRequest, text: string) =>
      leaks({ text }, `${req.path} ${typeof req.body === "string" ? req.body : ""}`, outside),
    /** What changed since the last call (or the seed). */
    async changes(): Promise<string[]> {
      const after = await snapshot(world.api);
      const found = changes(world, before, after);
      before = after;
      outside = outsideIds(world, after);
      return found;
    },
  };
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
    fc.constantFrom(...seed.outside).map((target) => json("PATCH", `/v1/memories/${target}`, {}, "replay probe")),
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
