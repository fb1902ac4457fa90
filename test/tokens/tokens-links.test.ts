import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { createdMemory, mintedToken } from "./token-helpers";

/**
 * A token's restriction on the writes that follow links (supersession, parents, tags, entities) and on the ids
 * its answers name: every memory a write touches is inside, and an outside memory is never named nor detectable.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await testStack();
}, 90_000);

const U1 = { metadata: { user_id: "u_1" } };

const tokenFor = (api: ApiClient, restrict: Record<string, unknown>) => mintedToken(stack.baseUrl, api, restrict);
const create = createdMemory;

const graphql = async (tok: ApiClient, query: string, variables: Record<string, unknown>) =>
  (await tok.post("/graphql", { query, variables })).body;

const forbidden = (res: { status: number; body: any }, field: string) => {
  expect(res.status).toBe(403);
  expect(res.body.error.details).toEqual({ field, constraint: "token_restriction" });
};

describe("supersession", () => {
  test("a chain that ends outside is a 403; the memory outside is untouched and never named", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const a = await create(t.api, { content: "a", metadata: { user_id: "u_1" } });
    const b = await create(t.api, { content: "b", metadata: { user_id: "u_2" }, supersedes: a });
    const before = (await t.api.get(`/v1/memories/${b}`)).body.data;
    const tok = await tokenFor(t.api, U1);
    const res = await tok.post("/v1/memories", { content: "c", supersedes: a });
    forbidden(res, "supersedes");
    expect(JSON.stringify(res.body)).not.toContain(b);
    const batch = await tok.post("/v1/memories/batch", { items: [{ content: "c", supersedes: a }] });
    expect(batch.body.data.items[0].error.details).toEqual({ field: "supersedes", constraint: "token_restriction" });
    expect(JSON.stringify(batch.body)).not.toContain(b);
    expect((await t.api.get(`/v1/memories/${b}`)).body.data).toEqual(before);
  });

  test("the same with a subtree restriction", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const root = await create(t.api, { content: "root" });
    const a = await create(t.api, { content: "a", parent_memory_id: root });
    const b = await create(t.api, { content: "b", supersedes: a });
    const tok = await tokenFor(t.api, { root_memory_id: root });
    forbidden(await tok.post("/v1/memories", { content: "c", parent_memory_id: root, supersedes: a }), "supersedes");
    expect((await t.api.get(`/v1/memories/${b}`)).body.data.superseded_by).toBeNull();
  });

  test("a chain that stays inside is followed as for a key", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const a = await create(t.api, { content: "a", metadata: { user_id: "u_1" } });
    const b = await create(t.api, { content: "b", metadata: { user_id: "u_1" }, supersedes: a });
    const tok = await tokenFor(t.api, U1);
    const c = await tok.post("/v1/memories", { content: "c", supersedes: a });
    expect(c.status).toBe(200);
    expect(c.body.data.supersedes).toBe(b);
    expect((await t.api.get(`/v1/memories/${b}`)).body.data.superseded_by).toBe(c.body.data.id);
  });

  test("naming a memory outside, or none, is the same 403", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const theirs = await create(t.api, { content: "theirs", metadata: { user_id: "u_2" } });
    const tok = await tokenFor(t.api, U1);
    const outside = await tok.post("/v1/memories", { content: "c", supersedes: theirs });
    const missing = await tok.post("/v1/memories", { content: "c", supersedes: crypto.randomUUID() });
    forbidden(outside, "supersedes");
    expect(missing.body.error).toEqual(outside.body.error);
  });

  test("ids of memories outside read as none: REST, batch, list and GraphQL", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const top = await create(t.api, { content: "top", metadata: { user_id: "u_2" } });
    const a = await create(t.api, { content: "a", metadata: { user_id: "u_1" }, parent_memory_id: top });
    const b = await create(t.api, { content: "b", metadata: { user_id: "u_2" }, supersedes: a });
    const c = await create(t.api, { content: "c", metadata: { user_id: "u_1" }, supersedes: b });
    const tok = await tokenFor(t.api, U1);
    const none = { parent_memory_id: null, superseded_by: null, valid_to: null };
    expect((await tok.get(`/v1/memories/${a}`)).body.data).toMatchObject(none);
    expect((await tok.get(`/v1/memories/${c}`)).body.data.supersedes).toBeNull();
    const list = await tok.get("/v1/memories");
    expect(list.body.data.map((m: any) => m.content).sort()).toEqual(["a", "c"]);
    expect(JSON.stringify(list.body)).not.toContain(b);
    expect(JSON.stringify(list.body)).not.toContain(top);
    const fields = "supersedes supersededBy validTo parentMemoryId parent { id }";
    const q = `query($a: ID!, $c: ID!) { a: memory(id: $a) { ${fields} } c: memory(id: $c) { ${fields} }
      memories { items { ${fields} } } }`;
    const gql = await graphql(tok, q, { a, c });
    expect(gql.data.a).toEqual({
      supersedes: null,
      supersededBy: null,
      validTo: null,
      parentMemoryId: null,
      parent: null,
    });
    expect(JSON.stringify(gql)).not.toContain(b);
    expect(JSON.stringify(gql)).not.toContain(top);
    // A patch answers the memory as the token sees it, too.
    const patched = await tok.patch(`/v1/memories/${a}`, { content: "a2" });
    expect(patched.body.data).toMatchObject(none);
    // The key still sees every link.
    expect((await t.api.get(`/v1/memories/${a}`)).body.data.superseded_by).toBe(b);
  });

  test("a patch of occurred_at that would move an outside memory's valid_to is a 403", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const theirs = await create(t.api, { content: "theirs", metadata: { user_id: "u_2" } });
    const mine = await create(t.api, { content: "mine", metadata: { user_id: "u_1" }, supersedes: theirs });
    const before = (await t.api.get(`/v1/memories/${theirs}`)).body.data;
    const tok = await tokenFor(t.api, U1);
    forbidden(await tok.patch(`/v1/memories/${mine}`, { occurred_at: "2020-01-01T00:00:00.000Z" }), "occurred_at");
    expect((await t.api.get(`/v1/memories/${theirs}`)).body.data).toEqual(before);
  });

  test("a delete that would change a memory outside (restored, orphaned) is a 403", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const theirs = await create(t.api, { content: "theirs", metadata: { user_id: "u_2" } });
    const replacing = await create(t.api, { content: "r", metadata: { user_id: "u_1" }, supersedes: theirs });
    const parent = await create(t.api, { content: "p", metadata: { user_id: "u_1" } });
    const kid = await create(t.api, { content: "kid", metadata: { user_id: "u_2" }, parent_memory_id: parent });
    const tok = await tokenFor(t.api, U1);
    forbidden(await tok.delete(`/v1/memories/${replacing}`), "id");
    forbidden(await tok.delete(`/v1/memories/${parent}`), "id");
    expect((await t.api.get(`/v1/memories/${theirs}`)).body.data.superseded_by).toBe(replacing);
    expect((await t.api.get(`/v1/memories/${kid}`)).body.data.parent_memory_id).toBe(parent);
    const alone = await create(t.api, { content: "alone", metadata: { user_id: "u_1" } });
    expect((await tok.delete(`/v1/memories/${alone}`)).status).toBe(200);
  });
});

describe("external_id", () => {
  test("a token cannot set one: the answer is the same whether an outside memory holds it or not", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    await create(t.api, { content: "theirs", metadata: { user_id: "u_2" }, external_id: "taken" });
    const tok = await tokenFor(t.api, U1);
    const held = await tok.post("/v1/memories", { content: "c", external_id: "taken" });
    const free = await tok.post("/v1/memories", { content: "c", external_id: "free" });
    forbidden(held, "external_id");
    expect(free.body.error).toEqual(held.body.error);
    const batch = await tok.post("/v1/memories/batch", { items: [{ content: "c", external_id: "taken" }] });
    expect(batch.body.data.items[0].error).toEqual(held.body.error);
    const mine = await create(tok, { content: "mine" });
    forbidden(await tok.patch(`/v1/memories/${mine}`, { external_id: "taken" }), "external_id");
    const list = await tok.get("/v1/memories?external_id=taken");
    expect(list.body.meta.total).toBe(0);
  });
});

describe("tags and entities", () => {
  test("a token cannot delete or change a tag (REST and GraphQL); the key's memories keep it", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const tag = (await t.api.post("/v1/tags", { name: "shared" })).body.data.id;
    const theirs = await create(t.api, { content: "theirs", metadata: { user_id: "u_2" } });
    await t.api.post(`/v1/memories/${theirs}/tags`, { tag_ids: [tag] });
    for (const restrict of [U1, { tag_ids: [tag] }]) {
      const tok = await tokenFor(t.api, restrict);
      forbidden(await tok.delete(`/v1/tags/${tag}`), "tag_id");
      forbidden(await tok.patch(`/v1/tags/${tag}`, { name: "renamed" }), "tag_id");
      const gql = await graphql(tok, `mutation($id: ID!) { deleteTag(id: $id) { id } }`, { id: tag });
      expect(gql.errors[0].extensions.code).toBe("FORBIDDEN");
    }
    const kept = (await t.api.get(`/v1/memories/${theirs}`)).body.data;
    expect(kept.tags.map((x: any) => x.name)).toEqual(["shared"]);
  });

  test("a token cannot delete or change an entity; the key's memories keep their links", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const theirs = await create(t.api, { content: "theirs", metadata: { user_id: "u_2" } });
    const made = await t.api.post("/v1/entities", { name: "Ann", type: "person", memory_ids: [theirs] });
    const entity = made.body.data.id;
    const tok = await tokenFor(t.api, U1);
    forbidden(await tok.delete(`/v1/entities/${entity}`), "entity_id");
    forbidden(await tok.patch(`/v1/entities/${entity}`, { name: "Bob" }), "entity_id");
    expect((await t.api.get(`/v1/memories/${theirs}`)).body.data.entity_ids).toEqual([entity]);
    expect((await t.api.get(`/v1/entities/${entity}`)).body.data.name).toBe("Ann");
  });

  test("memory_count counts only memories inside; sorting tags by it is refused", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const tag = (await t.api.post("/v1/tags", { name: "shared" })).body.data.id;
    const mine = await create(t.api, { content: "mine", metadata: { user_id: "u_1" } });
    const ids = [mine];
    for (let i = 0; i < 2; i++) ids.push(await create(t.api, { content: "theirs", metadata: { user_id: "u_2" } }));
    for (const id of ids) await t.api.post(`/v1/memories/${id}/tags`, { tag_ids: [tag] });
    const entity = (await t.api.post("/v1/entities", { name: "Ann", type: "person", memory_ids: ids })).body.data.id;
    const tok = await tokenFor(t.api, U1);
    expect((await tok.get(`/v1/tags/${tag}`)).body.data.memory_count).toBe(1);
    expect((await tok.get("/v1/tags")).body.data[0].memory_count).toBe(1);
    forbidden(await tok.get("/v1/tags?sort=memory_count"), "sort");
    expect((await tok.get(`/v1/entities/${entity}`)).body.data.memory_count).toBe(1);
    expect((await tok.get("/v1/entities")).body.data[0].memory_count).toBe(1);
    const linked = await tok.post(`/v1/entities/${entity}/memories`, { memory_ids: [mine] });
    expect(linked.body.data.memory_count).toBe(1);
    const gql = await graphql(tok, `query($id: ID!) { tag(id: $id) { memoryCount } }`, { id: tag });
    expect(gql.data.tag.memoryCount).toBe(1);
    expect((await t.api.get(`/v1/tags/${tag}`)).body.data.memory_count).toBe(3);
  });
});

test("a subtree token deletes its root only with cascade: its children would leave the subtree", async () => {
  const t = await newTenant(stack.baseUrl, stack.adminKey);
  const root = await create(t.api, { content: "root" });
  const child = await create(t.api, { content: "child", parent_memory_id: root });
  const tok = await tokenFor(t.api, { root_memory_id: root });
  forbidden(await tok.delete(`/v1/memories/${root}`), "cascade");
  expect((await t.api.get(`/v1/memories/${child}`)).body.data.parent_memory_id).toBe(root);
  expect((await tok.delete(`/v1/memories/${root}?cascade=true`)).status).toBe(200);
  expect((await t.api.get(`/v1/memories/${child}`)).status).toBe(404);
});
