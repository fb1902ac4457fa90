import { beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";

/**
 * A token for `user_id: u_1` reaches no memory of `u_2` through any REST route or GraphQL field: random
 * operations (reads, lists with filters, search, context, hierarchy fields, tag and entity walks, and writes
 * aimed at u_2's memories) never answer u_2's content, and u_2's memories are unchanged after them all.
 * u_2's memories sit where walks cross: a u_1 memory below a u_2 root, a u_2 memory below a u_1 root, a tag
 * and an entity on both users' memories.
 */
let stack: Stack;
let key: ApiClient;
let token: ApiClient;
let tokenSecret: string;
const u1: string[] = [];
const u2: string[] = [];
let tagId = "";
let entityId = "";
const SECRET = "SECRET-u2";

const create = async (content: string, user: string, parent?: string) => {
  const body = { content, metadata: { user_id: user }, ...(parent ? { parent_memory_id: parent } : {}) };
  const res = await key.post("/v1/memories", body);
  expect(res.status).toBe(200);
  (user === "u_1" ? u1 : u2).push(res.body.data.id);
  return res.body.data.id as string;
};

beforeAll(async () => {
  stack = await testStack();
  const t = await newTenant(stack.baseUrl, stack.adminKey);
  key = t.api;
  const r1 = await create("u1 root about tea", "u_1");
  const r2 = await create(`${SECRET} root about tea`, "u_2");
  await create("u1 reply about tea", "u_1", r1);
  await create(`${SECRET} reply under u1 about tea`, "u_2", r1);
  await create("u1 memory below a u2 root about tea", "u_1", r2);
  await create(`${SECRET} reply about tea`, "u_2", r2);
  tagId = (await key.post("/v1/tags", { name: "tea" })).body.data.id;
  for (const id of [...u1, ...u2]) await key.post(`/v1/memories/${id}/tags`, { tag_ids: [tagId] });
  entityId = (await key.post("/v1/entities", { name: "Tea", type: "concept", memory_ids: [...u1, ...u2] })).body.data
    .id;
  const minted = await key.post("/v1/tokens", {
    scopes: ["memories:read", "memories:write", "search:read"],
    restrict: { metadata: { user_id: "u_1" } },
  });
  tokenSecret = minted.body.data.token;
  token = apiClient(stack.baseUrl, tokenSecret);
  // Search finds u_2's memories for the key, so a search that leaked them would show it.
  const deadline = Date.now() + 10_000;
  while ((await key.post("/v1/search", { query: "tea", limit: 20 })).body.data?.results?.length < 6) {
    if (Date.now() > deadline) throw new Error("the search index did not catch up");
    await Bun.sleep(100);
  }
}, 90_000);

const gql = async (query: string, variables: Record<string, unknown> = {}) => {
  const res = await fetch(`${stack.baseUrl}/graphql`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tokenSecret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, text: await res.text() };
};

const WALK = `content parent { content } ancestors { content } children { items { content } }`;

type Op = { name: string; run: () => Promise<{ status: number; text: string }> };
const rest = (p: Promise<{ status: number; body: unknown }>) =>
  p.then((r) => ({ status: r.status, text: JSON.stringify(r.body) }));

const anyId = () => fc.constantFrom(...u1, ...u2);
const theirs = () => fc.constantFrom(...u2);

const operations = (): fc.Arbitrary<Op> =>
  fc.oneof(
    anyId().map((id) => ({ name: `GET ${id}`, run: () => rest(token.get(`/v1/memories/${id}`)) })),
    fc
      .record({
        parent: fc.option(anyId(), { nil: undefined }),
        tag: fc.boolean(),
        entity: fc.boolean(),
        root: fc.option(fc.boolean(), { nil: undefined }),
        limit: fc.integer({ min: 1, max: 10 }),
      })
      .map((q) => {
        const params = new URLSearchParams({ limit: String(q.limit) });
        if (q.parent) params.set("parent_memory_id", q.parent);
        if (q.tag) params.set("tag_id", tagId);
        if (q.entity) params.set("entity_id", entityId);
        if (q.root !== undefined) params.set("root", String(q.root));
        return { name: `list ${params}`, run: () => rest(token.get(`/v1/memories?${params}`)) };
      }),
    theirs().map((id) => ({
      name: `PATCH ${id}`,
      run: () => rest(token.patch(`/v1/memories/${id}`, { content: "x" })),
    })),
    fc.record({ id: theirs(), cascade: fc.boolean() }).map(({ id, cascade }) => ({
      name: `DELETE ${id}`,
      run: () => rest(token.delete(`/v1/memories/${id}?cascade=${cascade}`)),
    })),
    fc.record({ parent: anyId(), user: fc.constantFrom("u_1", "u_2") }).map(({ parent, user }) => ({
      name: `create under ${parent} as ${user}`,
      run: () =>
        rest(token.post("/v1/memories", { content: "new", parent_memory_id: parent, metadata: { user_id: user } })),
    })),
    theirs().map((id) => ({
      name: `attach to ${id}`,
      run: () => rest(token.post(`/v1/memories/${id}/tags`, { tag_ids: [tagId] })),
    })),
    theirs().map((id) => ({
      name: `detach from ${id}`,
      run: () => rest(token.delete(`/v1/memories/${id}/tags/${tagId}`)),
    })),
    theirs().map((id) => ({
      name: `link ${id}`,
      run: () => rest(token.post(`/v1/entities/${entityId}/memories`, { memory_ids: [id] })),
    })),
    fc.constantFrom("tea", "SECRET", "*").map((query) => ({
      name: `search ${query}`,
      run: () => rest(token.post("/v1/search", { query, limit: 20 })),
    })),
    fc.constantFrom("tea", "reply", "*").map((query) => ({
      name: `context ${query}`,
      run: () => rest(token.post("/v1/context", { query, neighbors: 3 })),
    })),
    anyId().map((id) => ({
      name: `gql memory ${id}`,
      run: () => gql(`query($id: ID!) { memory(id: $id) { ${WALK} } }`, { id }),
    })),
    fc.constantFrom("", `(filter: { tagIds: ["${"TAG"}"] })`).map((filter) => ({
      name: `gql memories ${filter}`,
      run: () => gql(`{ memories${filter.replace("TAG", tagId)} { total items { ${WALK} } } }`),
    })),
    fc.constant({
      name: "gql tag and entity walks",
      run: () =>
        gql(
          `query($t: ID!, $e: ID!) { tag(id: $t) { memories { items { ${WALK} } } }
          entity(id: $e) { memories { items { ${WALK} } } } }`,
          { t: tagId, e: entityId },
        ),
    }),
    fc.constant({
      name: "gql search and context",
      run: () =>
        gql(`{ search(input: { query: "tea", limit: 20 }) { results { content parent { content } } }
          context(input: { query: "tea" }) { context memories { content } } }`),
    }),
    theirs().map((id) => ({
      name: `gql updateMemory ${id}`,
      run: () => gql(`mutation($id: ID!) { updateMemory(id: $id, input: { content: "x" }) { content } }`, { id }),
    })),
  );

test("a token for u_1 reaches no memory of u_2 through any REST route or GraphQL field", async () => {
  const before = await Promise.all(u2.map((id) => key.get(`/v1/memories/${id}`)));
  await fc.assert(
    fc.asyncProperty(fc.array(operations(), { minLength: 1, maxLength: 6 }), async (ops) => {
      for (const op of ops) {
        const { status, text } = await op.run();
        if (status >= 500 || text.includes(SECRET)) throw new Error(`${op.name}: ${status} ${text.slice(0, 500)}`);
      }
    }),
    { numRuns: 40 },
  );
  const after = await Promise.all(u2.map((id) => key.get(`/v1/memories/${id}`)));
  expect(after.map((r) => r.status)).toEqual(u2.map(() => 200));
  expect(after.map((r) => r.body.data)).toEqual(before.map((r) => r.body.data));
}, 120_000);
