import { beforeAll, describe, expect, test } from "bun:test";
import { gqlTenant, toRest, type Gql } from "./graphql-helpers";
import type { ApiClient } from "../api";

/**
 * Issue 5: REST and GraphQL are two thin adapters over the same operations, so for the same
 * operation they return the same data. GraphQL spells it camelCase with GraphQL-style enum names;
 * `toRest` turns it back, and the result must equal REST's `data` (and list `meta`).
 */
const pageMeta = (p: any) => ({ total: p.total, limit: p.limit, offset: p.offset, has_more: p.hasMore });
const restMeta = (m: any) => ({ total: m.total, limit: m.limit, offset: m.offset, has_more: m.has_more });

const MEMORY =
  "id content contentType tier memoryNature parentMemoryId externalId metadata entityIds createdAt updatedAt " +
  "occurredAt expiresAt supersedes supersededBy validTo tags { id name color }";
const TAG = `id name color description memoryCount createdAt updatedAt`;
const ENTITY = `id name type description metadata memoryCount createdAt updatedAt`;
const KEY = `id name prefix scopes rateLimit plan environment tenantId expiresAt createdAt lastUsedAt revokedAt`;

let gql: Gql;
let api: ApiClient;
let root: any;
let kids: any[] = [];
let tagIds: string[] = [];
let entityId: string;
let keyId: string;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  api = t.api;
  keyId = t.keyId;
  root = (
    await api.post("/v1/memories", {
      content: "root",
      tier: "long",
      external_id: "root-1",
      metadata: { source_app: "chat", nested: { a_b: [1, 2] } },
    })
  ).body.data;
  for (let i = 0; i < 4; i++)
    kids.push(
      (
        await api.post("/v1/memories", {
          content: `turn ${i}`,
          parent_memory_id: root.id,
          content_type: "conversation",
          memory_nature: "semantic",
        })
      ).body.data,
    );
  for (const name of ["Zeta", "alpha", "Mid"])
    tagIds.push((await api.post("/v1/tags", { name, color: "#AbCdEf", description: `${name} tag` })).body.data.id);
  await api.post(`/v1/memories/${kids[1].id}/tags`, { tag_ids: tagIds });
  entityId = (
    await api.post("/v1/entities", {
      name: "Ann",
      type: "person",
      metadata: { role_name: "x" },
      memory_ids: [kids[1].id, kids[2].id],
    })
  ).body.data.id;
  await api.post("/v1/entities", { name: "Berlin", type: "place" });
});

describe("same operation, same data", () => {
  test("memories.get", async () => {
    for (const id of [root.id, kids[1].id]) {
      const rest = await api.get(`/v1/memories/${id}`);
      const data = await gql.request(`query($id: ID!) { memory(id: $id) { ${MEMORY} } }`, { id });
      expect(toRest(data.memory)).toEqual(rest.body.data);
    }
  });

  test("memories.list with filters, paging and order", async () => {
    const rest = await api.get(
      `/v1/memories?parent_memory_id=${root.id}&content_type=conversation&limit=2&offset=1&order=asc&sort=updated_at`,
    );
    const data = await gql.request(
      "query($p: ID!) { memories(filter: { parentMemoryId: $p, contentType: CONVERSATION }, " +
        "limit: 2, offset: 1, order: ASC, sort: UPDATED_AT) " +
        `{ total limit offset hasMore items { ${MEMORY} } } }`,
      { p: root.id },
    );
    expect(toRest(data.memories.items)).toEqual(rest.body.data);
    expect(pageMeta(data.memories)).toEqual(restMeta(rest.body.meta));
    const children = await gql.request(
      "query($id: ID!) { memory(id: $id) { children(limit: 2, offset: 1, order: ASC, sort: UPDATED_AT) " +
        `{ total limit offset hasMore items { ${MEMORY} } } } }`,
      { id: root.id },
    );
    expect(toRest(children.memory.children.items)).toEqual(rest.body.data);
    const tagged = await api.get(`/v1/memories?tag_id=${tagIds[0]}&tag_id=${tagIds[2]}`);
    const gTagged = await gql.request(
      `query($t: [ID!]) { memories(filter: { tagIds: $t }) { total items { ${MEMORY} } } }`,
      { t: [tagIds[0], tagIds[2]] },
    );
    expect(toRest(gTagged.memories.items)).toEqual(tagged.body.data);
  });

  test("tags.get and tags.list", async () => {
    const rest = await api.get(`/v1/tags?sort=name&order=desc&limit=2&search=a`);
    const data = await gql.request(
      `{ tags(sort: NAME, order: DESC, limit: 2, search: "a") { total limit offset hasMore items { ${TAG} } } }`,
    );
    expect(toRest(data.tags.items)).toEqual(rest.body.data);
    expect(pageMeta(data.tags)).toEqual(restMeta(rest.body.meta));
    const one = await gql.request(`query($id: ID!) { tag(id: $id) { ${TAG} } }`, { id: tagIds[1] });
    expect(toRest(one.tag)).toEqual((await api.get(`/v1/tags/${tagIds[1]}`)).body.data);
    // A memory's tags: full tags in GraphQL, refs in REST, same ids in the same order.
    const m = await gql.request(`query($id: ID!) { memory(id: $id) { tags { id description } } }`, { id: kids[1].id });
    expect(m.memory.tags.map((t: { id: string }) => t.id)).toEqual(
      (await api.get(`/v1/memories/${kids[1].id}`)).body.data.tags.map((t: { id: string }) => t.id),
    );
  });

  test("entities.get and entities.list", async () => {
    const rest = await api.get(`/v1/entities?limit=1&offset=1`);
    const data = await gql.request(
      `{ entities(limit: 1, offset: 1) { total limit offset hasMore items { ${ENTITY} } } }`,
    );
    expect(toRest(data.entities.items)).toEqual(rest.body.data);
    expect(pageMeta(data.entities)).toEqual(restMeta(rest.body.meta));
    const one = await gql.request(`query($id: ID!) { entity(id: $id) { ${ENTITY} } }`, { id: entityId });
    expect(toRest(one.entity)).toEqual((await api.get(`/v1/entities/${entityId}`)).body.data);
    const linked = await gql.request(`query($id: ID!) { entity(id: $id) { memories { total items { ${MEMORY} } } } }`, {
      id: entityId,
    });
    expect(toRest(linked.entity.memories.items)).toEqual(
      (await api.get(`/v1/memories?entity_id=${entityId}`)).body.data,
    );
  });

  test("keys.list and usage.report", async () => {
    const rest = await api.get(`/v1/keys?limit=5`);
    const data = await gql.request(`{ keys(limit: 5) { total limit offset hasMore items { ${KEY} } } }`);
    // last_used_at moves with every request: compare it separately.
    const strip = (k: any) => ({ ...k, last_used_at: undefined });
    expect(toRest(data.keys.items).map(strip)).toEqual(rest.body.data.map(strip));
    expect(pageMeta(data.keys)).toEqual(restMeta(rest.body.meta));
    // Usage of a key never used is stable between the two reads.
    const unused = (await api.post("/v1/keys", { name: "unused" })).body.data.id;
    const report =
      'query($k: ID) { usage(from: "2025-01-01", to: "2025-01-31", keyId: $k) { from to keyId ' +
      "totals { requests errors rateLimited } byDay { day requests errors rateLimited } " +
      "byEndpoint { endpoint requests errors rateLimited } byKey { keyId requests errors rateLimited } " +
      "storage { memories bytes limits { memories bytes } } } }";
    expect(toRest((await gql.request(report, { k: unused })).usage)).toEqual(
      (await api.get(`/v1/usage?from=2025-01-01&to=2025-01-31&key_id=${unused}`)).body.data,
    );
    expect(keyId).toEqual(expect.any(String));
  });
});

describe("same write, same result", () => {
  test("createMemory and POST /v1/memories store the same memory", async () => {
    const body = {
      content: "same",
      content_type: "fact",
      tier: "short",
      memory_nature: "semantic",
      parent_memory_id: root.id,
      metadata: { camelKey: { snake_key: true } },
    };
    const rest = (await api.post("/v1/memories", body)).body.data;
    const g = (
      await gql.request(`mutation($i: CreateMemoryInput!) { createMemory(input: $i) { ${MEMORY} } }`, {
        i: {
          content: "same",
          contentType: "FACT",
          tier: "SHORT",
          memoryNature: "SEMANTIC",
          parentMemoryId: root.id,
          metadata: { camelKey: { snake_key: true } },
        },
      })
    ).createMemory;
    const ignore = (m: any) => ({
      ...m,
      id: undefined,
      created_at: undefined,
      updated_at: undefined,
      occurred_at: undefined,
    });
    expect(ignore(toRest(g))).toEqual(ignore(rest));
    expect(toRest(g)).toEqual((await api.get(`/v1/memories/${g.id}`)).body.data);
  });

  test("updateTag and PATCH /v1/tags/:id change the same way", async () => {
    const a = (await api.post("/v1/tags", { name: "pa", color: "#000000", description: "d" })).body.data;
    const b = (await api.post("/v1/tags", { name: "pb", color: "#000000", description: "d" })).body.data;
    const rest = (await api.patch(`/v1/tags/${a.id}`, { color: null, description: "new" })).body.data;
    const g = (
      await gql.request(
        `mutation($id: ID!) { updateTag(id: $id, input: { color: null, description: "new" }) { ${TAG} } }`,
        { id: b.id },
      )
    ).updateTag;
    const ignore = (t: any) => ({ ...t, id: undefined, name: undefined, created_at: undefined, updated_at: undefined });
    expect(ignore(toRest(g))).toEqual(ignore(rest));
  });
});

describe("one key: read, changed, rotated", () => {
  const ROTATE = `mutation($id: ID!, $g: Int) {
    rotateKey(id: $id, graceSeconds: $g) { key message apiKey { ${KEY} } }
  }`;
  /** A key of the tenant, made over REST; the record as GET shows it. */
  const minted = async (body: Record<string, unknown> = {}) =>
    (await api.post("/v1/keys", { name: "parity", scopes: ["memories:read"], ...body })).body.data;

  test("key(id) and GET /v1/keys/:id answer the same record", async () => {
    const k = await minted({ rate_limit: 9, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    const data = await gql.request(`query($id: ID!) { key(id: $id) { ${KEY} } }`, { id: k.id });
    expect(toRest(data.key)).toEqual((await api.get(`/v1/keys/${k.id}`)).body.data);
  });

  test("updateKey and PATCH /v1/keys/:id change the same way", async () => {
    const [a, b] = [await minted(), await minted()];
    const patch = { name: "changed", scopes: ["memories:read", "search:read"], rate_limit: 77, expires_at: null };
    const rest = (await api.patch(`/v1/keys/${a.id}`, patch)).body.data;
    const input = { name: "changed", scopes: ["MEMORIES_READ", "SEARCH_READ"], rateLimit: 77, expiresAt: null };
    const g = (
      await gql.request(`mutation($id: ID!, $i: UpdateKeyInput!) { updateKey(id: $id, input: $i) { ${KEY} } }`, {
        id: b.id,
        i: input,
      })
    ).updateKey;
    const ignore = (k: any) => ({ ...k, id: undefined, prefix: undefined, created_at: undefined });
    expect(ignore(toRest(g))).toEqual(ignore(rest));
    expect(toRest(g)).toEqual((await api.get(`/v1/keys/${b.id}`)).body.data);
  });

  test("rotateKey and POST /v1/keys/:id/rotate: the same payload, the record kept", async () => {
    const [a, b] = [await minted(), await minted()];
    const rest = (await api.post(`/v1/keys/${a.id}/rotate`, { grace_seconds: 60 })).body.data;
    const g = (await gql.request(ROTATE, { id: b.id, g: 60 })).rotateKey;
    const { key: restKey, message: restMessage, ...restRecord } = rest;
    expect(g.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(toRest(g.apiKey)).toEqual({ ...(await api.get(`/v1/keys/${b.id}`)).body.data });
    expect(toRest(g.apiKey).prefix).toBe(g.key.slice(0, 13));
    const ignore = (k: any) => ({ ...k, id: undefined, prefix: undefined, created_at: undefined });
    expect(ignore(toRest(g.apiKey))).toEqual(ignore(restRecord));
    const until = (m: string) => m.replace(/until \S+$/, "until …");
    expect(until(g.message)).toBe(until(restMessage));
    expect(restKey).not.toBe(g.key);
  });
});
