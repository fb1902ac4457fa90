import { expect } from "bun:test";
import fc from "fast-check";
import { apiClient, newTenant, type ApiClient } from "../api";

/**
 * The isolation property of browser tokens, shared by its HTTP run (tokens-isolation.property.test.ts) and
 * its browser run (test/browser/tokens.test.ts): a token for `user_id: u_1` reaches no memory of `u_2`
 * through any REST route or GraphQL field. u_2's memories sit where walks cross: a u_1 memory below a u_2
 * root, a u_2 memory below a u_1 root, a tag and an entity on both users' memories.
 */
export const SECRET = "SECRET-u2";

export interface IsolationSeed {
  key: ApiClient;
  u1: string[];
  u2: string[];
  tagId: string;
  entityId: string;
  /** A token for u_1 that reads, writes and searches, allowed from `origins`. */
  mint(origins?: string[]): Promise<string>;
}

/** One request as the caller under test sends it (HTTP or a page's fetch): its status and body text. */
export type Send = (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string }>;

export async function seedIsolation(baseUrl: string, adminKey: string): Promise<IsolationSeed> {
  const { api: key } = await newTenant(baseUrl, adminKey);
  const u1: string[] = [];
  const u2: string[] = [];
  const create = async (content: string, user: string, parent?: string) => {
    const body = { content, metadata: { user_id: user }, ...(parent ? { parent_memory_id: parent } : {}) };
    const res = await key.post("/v1/memories", body);
    expect(res.status).toBe(200);
    (user === "u_1" ? u1 : u2).push(res.body.data.id);
    return res.body.data.id as string;
  };
  const r1 = await create("u1 root about tea", "u_1");
  const r2 = await create(`${SECRET} root about tea`, "u_2");
  await create("u1 reply about tea", "u_1", r1);
  await create(`${SECRET} reply under u1 about tea`, "u_2", r1);
  await create("u1 memory below a u2 root about tea", "u_1", r2);
  await create(`${SECRET} reply about tea`, "u_2", r2);
  const tagId = (await key.post("/v1/tags", { name: "tea" })).body.data.id;
  for (const id of [...u1, ...u2]) await key.post(`/v1/memories/${id}/tags`, { tag_ids: [tagId] });
  const entity = await key.post("/v1/entities", { name: "Tea", type: "concept", memory_ids: [...u1, ...u2] });
  // Search finds u_2's memories for the key, so a search that leaked them would show it.
  const deadline = Date.now() + 10_000;
  while ((await key.post("/v1/search", { query: "tea", limit: 20 })).body.data?.results?.length < 6) {
    if (Date.now() > deadline) throw new Error("the search index did not catch up");
    await Bun.sleep(100);
  }
  const mint = async (origins?: string[]) => {
    const minted = await key.post("/v1/tokens", {
      scopes: ["memories:read", "memories:write", "search:read"],
      restrict: { metadata: { user_id: "u_1" } },
      ...(origins ? { origins } : {}),
    });
    expect(minted.status).toBe(200);
    return minted.body.data.token as string;
  };
  return { key, u1, u2, tagId, entityId: entity.body.data.id, mint };
}

/** A `Send` over plain HTTP with a credential. */
export const httpSend =
  (baseUrl: string, credential: string): Send =>
  async (method, path, body) => {
    const res = await apiClient(baseUrl, credential).raw(method, path, body);
    return { status: res.status, text: typeof res.body === "string" ? res.body : JSON.stringify(res.body) };
  };

const WALK = `content parent { content } ancestors { content } children(limit: 5) { items { content } }`;

type Op = {
  name: string;
  run: (send: Send) => Promise<{ status: number; text: string }>;
  /** A read that must succeed (200, no GraphQL error): it would otherwise prove nothing. */
  reads?: boolean;
};

function operations(s: IsolationSeed): fc.Arbitrary<Op> {
  const anyId = () => fc.constantFrom(...s.u1, ...s.u2);
  const theirs = () => fc.constantFrom(...s.u2);
  const gql =
    (query: string, variables: Record<string, unknown> = {}) =>
    (send: Send) =>
      send("POST", "/graphql", { query, variables });
  return fc.oneof(
    anyId().map((id) => ({ name: `GET ${id}`, run: (send: Send) => send("GET", `/v1/memories/${id}`) })),
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
        if (q.tag) params.set("tag_id", s.tagId);
        if (q.entity) params.set("entity_id", s.entityId);
        if (q.root !== undefined) params.set("root", String(q.root));
        return { name: `list ${params}`, reads: true, run: (send: Send) => send("GET", `/v1/memories?${params}`) };
      }),
    theirs().map((id) => ({
      name: `PATCH ${id}`,
      run: (send: Send) => send("PATCH", `/v1/memories/${id}`, { content: "x" }),
    })),
    fc.record({ id: theirs(), cascade: fc.boolean() }).map(({ id, cascade }) => ({
      name: `DELETE ${id}`,
      run: (send: Send) => send("DELETE", `/v1/memories/${id}?cascade=${cascade}`),
    })),
    fc.record({ parent: anyId(), user: fc.constantFrom("u_1", "u_2") }).map(({ parent, user }) => ({
      name: `create under ${parent} as ${user}`,
      run: (send: Send) =>
        send("POST", "/v1/memories", { content: "new", parent_memory_id: parent, metadata: { user_id: user } }),
    })),
    theirs().map((id) => ({
      name: `attach to ${id}`,
      run: (send: Send) => send("POST", `/v1/memories/${id}/tags`, { tag_ids: [s.tagId] }),
    })),
    theirs().map((id) => ({
      name: `detach from ${id}`,
      run: (send: Send) => send("DELETE", `/v1/memories/${id}/tags/${s.tagId}`),
    })),
    theirs().map((id) => ({
      name: `link ${id}`,
      run: (send: Send) => send("POST", `/v1/entities/${s.entityId}/memories`, { memory_ids: [id] }),
    })),
    fc.constantFrom("tea", "SECRET", "*").map((query) => ({
      name: `search ${query}`,
      reads: true,
      run: (send: Send) => send("POST", "/v1/search", { query, limit: 20 }),
    })),
    fc.constantFrom("tea", "reply", "*").map((query) => ({
      name: `context ${query}`,
      reads: true,
      run: (send: Send) => send("POST", "/v1/context", { query, neighbors: 3 }),
    })),
    anyId().map((id) => ({
      name: `gql memory ${id}`,
      run: gql(`query($id: ID!) { memory(id: $id) { ${WALK} } }`, { id }),
    })),
    fc.boolean().map((byTag) => ({
      name: `gql memories ${byTag ? "by tag" : ""}`,
      reads: true,
      run: gql(
        `query($f: MemoryFilter) { memories(filter: $f, limit: 10) { total items { ${WALK} } } }`,
        byTag ? { f: { tagIds: [s.tagId] } } : {},
      ),
    })),
    fc.constantFrom("tag", "entity").map((kind) => ({
      name: `gql ${kind} walk`,
      reads: true,
      run: gql(`query($id: ID!) { ${kind}(id: $id) { memories(limit: 10) { items { ${WALK} } } } }`, {
        id: kind === "tag" ? s.tagId : s.entityId,
      }),
    })),
    fc.constantFrom("search", "context").map((field) => ({
      name: `gql ${field}`,
      reads: true,
      run: gql(
        field === "search"
          ? `{ search(input: { query: "tea", limit: 10 }) { results { memory { ${WALK} } } } }`
          : `{ context(input: { query: "tea", limit: 10 }) { context memories { memory { ${WALK} } } } }`,
      ),
    })),
    theirs().map((id) => ({
      name: `gql updateMemory ${id}`,
      run: gql(`mutation($id: ID!) { updateMemory(id: $id, input: { content: "x" }) { content } }`, { id }),
    })),
  );
}

/**
 * Random sequences of operations through `send`: none answers u_2's content or a 5xx, and u_2's memories
 * are unchanged after them all.
 */
export async function checkIsolation(s: IsolationSeed, send: Send, numRuns: number): Promise<void> {
  const before = await Promise.all(s.u2.map((id) => s.key.get(`/v1/memories/${id}`)));
  await fc.assert(
    fc.asyncProperty(fc.array(operations(s), { minLength: 1, maxLength: 6 }), async (ops) => {
      for (const op of ops) {
        const { status, text } = await op.run(send);
        const failed = op.reads && (status !== 200 || text.includes('"errors"'));
        if (status >= 500 || failed || text.includes(SECRET))
          throw new Error(`${op.name}: ${status} ${text.slice(0, 500)}`);
      }
    }),
    { numRuns },
  );
  const after = await Promise.all(s.u2.map((id) => s.key.get(`/v1/memories/${id}`)));
  expect(after.map((r) => r.status)).toEqual(s.u2.map(() => 200));
  expect(after.map((r) => r.body.data)).toEqual(before.map((r) => r.body.data));
}
