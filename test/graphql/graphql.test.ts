import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { E, gqlClient, gqlTenant, UNKNOWN_ID, type Gql } from "./graphql-helpers";
import type { ApiClient } from "../api";

/** Issue 5: every query and mutation of /graphql, through graphql-request, against the running stack. */
let gql: Gql;
let api: ApiClient;
let baseUrl: string;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MEMORY =
  "id content contentType tier memoryNature parentMemoryId externalId metadata entityIds createdAt updatedAt";
const TAG = `id name color description memoryCount createdAt updatedAt`;
const ENTITY = `id name type description metadata memoryCount createdAt updatedAt`;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  api = t.api;
  baseUrl = (await testStack()).baseUrl;
});

const create = async (input: Record<string, unknown>) =>
  (await gql.request(`mutation($input: CreateMemoryInput!) { createMemory(input: $input) { ${MEMORY} } }`, { input }))
    .createMemory;
const createTag = async (input: Record<string, unknown>) =>
  (await gql.request(`mutation($input: CreateTagInput!) { createTag(input: $input) { ${TAG} } }`, { input })).createTag;

describe("memories", () => {
  test("createMemory takes every field and answers the memory", async () => {
    const parent = await create({ content: "root", tier: "LONG" });
    const m = await create({
      content: "turn 1",
      contentType: "CONVERSATION",
      tier: "SHORT",
      memoryNature: "SEMANTIC",
      parentMemoryId: parent.id,
      externalId: "ext-1",
      metadata: { speaker: "ann", nested: { n: 1, camelCase: true } },
    });
    expect(m).toEqual({
      id: m.id,
      content: "turn 1",
      contentType: "CONVERSATION",
      tier: "SHORT",
      memoryNature: "SEMANTIC",
      parentMemoryId: parent.id,
      externalId: "ext-1",
      metadata: { speaker: "ann", nested: { n: 1, camelCase: true } },
      entityIds: [],
      createdAt: m.createdAt,
      updatedAt: m.createdAt,
    });
    expect(m.createdAt).toMatch(ISO_MS);
    // The contract's defaults apply when fields are left out.
    expect(await create({ content: "plain" })).toMatchObject({
      contentType: "TEXT",
      tier: "MEDIUM",
      memoryNature: "EPISODIC",
      parentMemoryId: null,
      externalId: null,
      metadata: {},
    });
  });

  test("memory(id) walks parent, children, ancestors, tags and entities", async () => {
    const root = await create({ content: "root" });
    const mid = await create({ content: "mid", parentMemoryId: root.id });
    const leaf = await create({ content: "leaf", parentMemoryId: mid.id });
    const tag = await createTag({ name: `walk-${crypto.randomUUID().slice(0, 6)}`, color: "#00ff00" });
    await api.post(`/v1/memories/${leaf.id}/tags`, { tag_ids: [tag.id] });
    const entity = (
      await api.post("/v1/entities", {
        name: `Ann ${crypto.randomUUID().slice(0, 6)}`,
        type: "person",
        memory_ids: [leaf.id],
      })
    ).body.data;
    const data = await gql.request(
      "query($id: ID!) { memory(id: $id) { id parent { id content parent { id } } ancestors { id content } " +
        "children { total items { id } }\n" +
        "         tags { id name color description memoryCount } entities { id name type memoryCount } } }",
      { id: leaf.id },
    );
    expect(data.memory).toEqual({
      id: leaf.id,
      parent: { id: mid.id, content: "mid", parent: { id: root.id } },
      ancestors: [
        { id: mid.id, content: "mid" },
        { id: root.id, content: "root" },
      ],
      children: { total: 0, items: [] },
      tags: [{ id: tag.id, name: tag.name, color: "#00ff00", description: null, memoryCount: 1 }],
      entities: [{ id: entity.id, name: entity.name, type: "PERSON", memoryCount: 1 }],
    });
    const up = await gql.request(
      "query($id: ID!) { memory(id: $id) { parent { id } ancestors { id } " +
        "children(limit: 1) { total limit offset hasMore items { id content } } } }",
      { id: root.id },
    );
    expect(up.memory).toEqual({
      parent: null,
      ancestors: [],
      children: { total: 1, limit: 1, offset: 0, hasMore: false, items: [{ id: mid.id, content: "mid" }] },
    });
  });

  test("memories(filter, limit, offset, sort, order) pages; REST's meta as total/limit/offset/hasMore", async () => {
    const { gql: own, api: ownApi } = await gqlTenant();
    const root = (await ownApi.post("/v1/memories", { content: "r", tier: "long" })).body.data;
    const kids = [];
    for (let i = 0; i < 3; i++)
      kids.push(
        (await ownApi.post("/v1/memories", { content: `k${i}`, parent_memory_id: root.id, content_type: "fact" })).body
          .data,
      );
    const tag = (await ownApi.post("/v1/tags", { name: "pick" })).body.data;
    await ownApi.post(`/v1/memories/${kids[1].id}/tags`, { tag_ids: [tag.id] });

    const all = await own.request(`{ memories { total limit offset hasMore items { id } } }`);
    expect(all.memories).toMatchObject({ total: 4, limit: 50, offset: 0, hasMore: false });
    // Newest first.
    expect(all.memories.items.map((m: { id: string }) => m.id)).toEqual([kids[2].id, kids[1].id, kids[0].id, root.id]);

    const page = await own.request(
      `{ memories(filter: { parentMemoryId: "${root.id}" }, limit: 2, offset: 0, sort: CREATED_AT, order: ASC) ` +
        "{ total hasMore items { id } } }",
    );
    expect(page.memories).toEqual({ total: 3, hasMore: true, items: [{ id: kids[0].id }, { id: kids[1].id }] });
    const q = `query($f: MemoryFilter) { memories(filter: $f) { total items { id } } }`;
    expect((await own.request(q, { f: { root: true } })).memories).toEqual({ total: 1, items: [{ id: root.id }] });
    expect((await own.request(q, { f: { tagIds: [tag.id] } })).memories).toEqual({
      total: 1,
      items: [{ id: kids[1].id }],
    });
    expect((await own.request(q, { f: { contentType: "FACT", tier: "MEDIUM" } })).memories.total).toBe(3);
    expect(
      (await own.request(q, { f: { createdAfter: kids[0].created_at, createdBefore: kids[2].created_at } })).memories
        .items,
    ).toEqual([{ id: kids[1].id }]);
  });

  test("updateMemory changes only what is sent; parentMemoryId: null makes a root", async () => {
    const root = await create({ content: "root" });
    const m = await create({ content: "before", parentMemoryId: root.id, metadata: { a: 1 } });
    const u = (
      await gql.request(
        `mutation($id: ID!, $input: UpdateMemoryInput!) { updateMemory(id: $id, input: $input) { ${MEMORY} } }`,
        { id: m.id, input: { content: "after", metadata: { b: 2 } } },
      )
    ).updateMemory;
    expect(u).toMatchObject({
      id: m.id,
      content: "after",
      parentMemoryId: root.id,
      metadata: { b: 2 },
      tier: "MEDIUM",
    });
    expect(Date.parse(u.updatedAt)).toBeGreaterThanOrEqual(Date.parse(m.updatedAt));
    const r = (
      await gql.request(
        "mutation($id: ID!) { updateMemory(id: $id, input: { parentMemoryId: null }) " +
          "{ parentMemoryId parent { id } } }",
        { id: m.id },
      )
    ).updateMemory;
    expect(r).toEqual({ parentMemoryId: null, parent: null });
  });

  test("deleteMemory: children become roots, or with cascade the subtree goes", async () => {
    const root = await create({ content: "root" });
    const kid = await create({ content: "kid", parentMemoryId: root.id });
    expect(
      (await gql.request(`mutation($id: ID!) { deleteMemory(id: $id) { id deleted deletedCount } }`, { id: root.id }))
        .deleteMemory,
    ).toEqual({ id: root.id, deleted: true, deletedCount: null });
    expect(
      (await gql.request(`query($id: ID!) { memory(id: $id) { parentMemoryId } }`, { id: kid.id })).memory,
    ).toEqual({ parentMemoryId: null });
    const grand = await create({ content: "grand", parentMemoryId: kid.id });
    expect(
      (
        await gql.request(`mutation($id: ID!) { deleteMemory(id: $id, cascade: true) { id deleted deletedCount } }`, {
          id: kid.id,
        })
      ).deleteMemory,
    ).toEqual({ id: kid.id, deleted: true, deletedCount: 2 });
    expect((await api.get(`/v1/memories/${grand.id}`)).status).toBe(404);
  });
});

describe("tags", () => {
  test("createTag, tag, tags(search, sort, order), updateTag, deleteTag", async () => {
    const { gql: own } = await gqlTenant();
    const create = async (input: Record<string, unknown>) =>
      (await own.request(`mutation($input: CreateTagInput!) { createTag(input: $input) { ${TAG} } }`, { input }))
        .createTag;
    const a = await create({ name: "Alpha", color: "#112233", description: "first" });
    expect(a).toEqual({
      id: a.id,
      name: "Alpha",
      color: "#112233",
      description: "first",
      memoryCount: 0,
      createdAt: a.createdAt,
      updatedAt: a.createdAt,
    });
    const b = await create({ name: "beta" });
    expect((await own.request(`query($id: ID!) { tag(id: $id) { ${TAG} } }`, { id: a.id })).tag).toEqual(a);
    expect((await own.request(`{ tags { total hasMore items { name } } }`)).tags).toEqual({
      total: 2,
      hasMore: false,
      items: [{ name: "Alpha" }, { name: "beta" }],
    });
    expect(
      (await own.request(`{ tags(sort: NAME, order: DESC, limit: 1) { total hasMore items { name } } }`)).tags,
    ).toEqual({ total: 2, hasMore: true, items: [{ name: "beta" }] });
    expect((await own.request(`{ tags(search: "ALP") { items { id } } }`)).tags.items).toEqual([{ id: a.id }]);
    const u = (
      await own.request(
        'mutation($id: ID!) { updateTag(id: $id, input: { color: null, description: "changed" }) ' +
          "{ name color description } }",
        { id: a.id },
      )
    ).updateTag;
    expect(u).toEqual({ name: "Alpha", color: null, description: "changed" });
    expect(
      (await own.request(`mutation($id: ID!) { deleteTag(id: $id) { id deleted } }`, { id: b.id })).deleteTag,
    ).toEqual({ id: b.id, deleted: true });
    expect((await own.request(`{ tags { total } }`)).tags.total).toBe(1);
  });

  test("attachTags/detachTag answer the link change, full tags and the memory; Tag.memories lists them", async () => {
    const m = await create({ content: "tagged" });
    const t1 = await createTag({ name: `t1-${crypto.randomUUID().slice(0, 6)}`, description: "one" });
    const t2 = await createTag({ name: `t2-${crypto.randomUUID().slice(0, 6)}` });
    const attach =
      "mutation($m: ID!, $t: [ID!]!) { attachTags(memoryId: $m, tagIds: $t) { memoryId added skipped " +
      "tags { id description memoryCount } memory { id tags { id } } } }";
    const a = (await gql.request(attach, { m: m.id, t: [t1.id, t2.id] })).attachTags;
    expect(a).toEqual({
      memoryId: m.id,
      added: 2,
      skipped: 0,
      tags: [
        { id: t1.id, description: "one", memoryCount: 1 },
        { id: t2.id, description: null, memoryCount: 1 },
      ],
      memory: { id: m.id, tags: [{ id: t1.id }, { id: t2.id }] },
    });
    expect((await gql.request(attach, { m: m.id, t: [t1.id] })).attachTags).toMatchObject({ added: 0, skipped: 1 });
    expect(
      (await gql.request(`query($id: ID!) { tag(id: $id) { memories { total items { id } } } }`, { id: t1.id })).tag
        .memories,
    ).toEqual({ total: 1, items: [{ id: m.id }] });
    const detach =
      "mutation($m: ID!, $t: ID!) { detachTag(memoryId: $m, tagId: $t) " +
      "{ memoryId tagId removed memory { tags { id } } } }";
    expect((await gql.request(detach, { m: m.id, t: t1.id })).detachTag).toEqual({
      memoryId: m.id,
      tagId: t1.id,
      removed: true,
      memory: { tags: [{ id: t2.id }] },
    });
    expect((await gql.request(detach, { m: m.id, t: t1.id })).detachTag.removed).toBe(false);
  });
});

describe("entities", () => {
  test("createEntity (with links), entity, entities(search, type), updateEntity, deleteEntity", async () => {
    const { gql: own } = await gqlTenant();
    const m = (await own.request(`mutation { createMemory(input: { content: "met Ann" }) { id } }`)).createMemory;
    const e = (
      await own.request(
        `mutation($input: CreateEntityInput!) { createEntity(input: $input) { ${ENTITY} memories { items { id } } } }`,
        {
          input: { name: "Ann", type: "PERSON", description: "a person", metadata: { k: "v" }, memoryIds: [m.id] },
        },
      )
    ).createEntity;
    expect(e).toEqual({
      id: e.id,
      name: "Ann",
      type: "PERSON",
      description: "a person",
      metadata: { k: "v" },
      memoryCount: 1,
      createdAt: e.createdAt,
      updatedAt: e.createdAt,
      memories: { items: [{ id: m.id }] },
    });
    const acme = (await own.request(`mutation { createEntity(input: { name: "Acme", type: ORGANIZATION }) { id } }`))
      .createEntity;
    expect((await own.request(`query($id: ID!) { entity(id: $id) { name } }`, { id: acme.id })).entity).toEqual({
      name: "Acme",
    });
    expect((await own.request(`{ entities { total items { name } } }`)).entities).toEqual({
      total: 2,
      items: [{ name: "Acme" }, { name: "Ann" }],
    });
    expect((await own.request(`{ entities(type: PERSON) { items { id } } }`)).entities.items).toEqual([{ id: e.id }]);
    expect(
      (await own.request(`{ entities(search: "acm", limit: 1) { total hasMore items { id } } }`)).entities,
    ).toEqual({ total: 1, hasMore: false, items: [{ id: acme.id }] });
    const u = (
      await own.request(
        "mutation($id: ID!) { updateEntity(id: $id, input: { description: null, type: CONCEPT }) " +
          "{ name type description } }",
        { id: acme.id },
      )
    ).updateEntity;
    expect(u).toEqual({ name: "Acme", type: "CONCEPT", description: null });
    expect(
      (await own.request(`mutation($id: ID!) { deleteEntity(id: $id) { id deleted } }`, { id: e.id })).deleteEntity,
    ).toEqual({ id: e.id, deleted: true });
    expect(
      (await own.request(`query($id: ID!) { memory(id: $id) { entityIds entities { id } } }`, { id: m.id })).memory,
    ).toEqual({ entityIds: [], entities: [] });
  });

  test("linkEntityMemories and unlinkEntityMemory; Memory.entities follows", async () => {
    const m1 = await create({ content: "one" });
    const m2 = await create({ content: "two" });
    const e = (
      await gql.request(
        `mutation { createEntity(input: { name: "Link ${crypto.randomUUID().slice(0, 6)}", type: PLACE }) { id } }`,
      )
    ).createEntity;
    const link =
      "mutation($id: ID!, $m: [ID!]!) { linkEntityMemories(id: $id, memoryIds: $m) " +
      "{ entityId added skipped memoryCount entity { memoryCount } } }";
    expect((await gql.request(link, { id: e.id, m: [m1.id, m2.id] })).linkEntityMemories).toEqual({
      entityId: e.id,
      added: 2,
      skipped: 0,
      memoryCount: 2,
      entity: { memoryCount: 2 },
    });
    expect((await gql.request(link, { id: e.id, m: [m1.id] })).linkEntityMemories).toMatchObject({
      added: 0,
      skipped: 1,
    });
    expect(
      (await gql.request(`query($id: ID!) { memory(id: $id) { entityIds entities { id type } } }`, { id: m1.id }))
        .memory,
    ).toEqual({ entityIds: [e.id], entities: [{ id: e.id, type: "PLACE" }] });
    const unlink =
      "mutation($id: ID!, $m: ID!) { unlinkEntityMemory(id: $id, memoryId: $m) " +
      "{ entityId memoryId removed entity { memoryCount } } }";
    expect((await gql.request(unlink, { id: e.id, m: m1.id })).unlinkEntityMemory).toEqual({
      entityId: e.id,
      memoryId: m1.id,
      removed: true,
      entity: { memoryCount: 1 },
    });
    expect((await gql.request(unlink, { id: e.id, m: m1.id })).unlinkEntityMemory.removed).toBe(false);
    expect(
      (
        await gql.request(`query($id: ID!) { entity(id: $id) { memories(limit: 10) { total items { id } } } }`, {
          id: e.id,
        })
      ).entity.memories,
    ).toEqual({ total: 1, items: [{ id: m2.id }] });
  });
});

describe("keys and usage (admin)", () => {
  test("createKey returns the secret once; keys lists without it; revokeKey stops the key", async () => {
    const { gql: admin } = await gqlTenant({ scopes: ["admin", "memories:read", "search:read"] });
    const created = (
      await admin.request(
        'mutation { createKey(input: { name: "frontend", scopes: [MEMORIES_READ, SEARCH_READ], ' +
          "rateLimit: 600, environment: TEST }) {\n" +
          "      key message apiKey { id name prefix scopes rateLimit plan environment tenantId " +
          "expiresAt createdAt lastUsedAt revokedAt } } }",
      )
    ).createKey;
    expect(created.key).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
    expect(created.message).toEqual(expect.any(String));
    expect(created.apiKey).toMatchObject({
      name: "frontend",
      scopes: ["MEMORIES_READ", "SEARCH_READ"],
      rateLimit: 600,
      environment: "TEST",
      expiresAt: null,
      revokedAt: null,
    });
    expect(created.key.startsWith(created.apiKey.prefix)).toBe(true);
    const fresh = gqlClient(baseUrl, created.key);
    expect((await fresh.request(`{ memories { total } }`)).memories.total).toBe(0);

    const keys = (await admin.request(`{ keys(limit: 10) { total limit offset hasMore items { id name scopes } } }`))
      .keys;
    expect(keys).toMatchObject({ total: 2, limit: 10, offset: 0, hasMore: false });
    expect(keys.items.map((k: { name: string }) => k.name).sort()).toEqual(["frontend", "test"]);

    const revoked = (
      await admin.request(`mutation($id: ID!) { revokeKey(id: $id) { id revoked revokedAt } }`, {
        id: created.apiKey.id,
      })
    ).revokeKey;
    expect(revoked).toEqual({ id: created.apiKey.id, revoked: true, revokedAt: expect.stringMatching(ISO_MS) });
    let status = 200;
    for (let i = 0; i < 40 && status !== 401; i++) {
      status = (await fresh.raw(`{ memories { total } }`)).status;
      if (status !== 401) await Bun.sleep(50);
    }
    expect(status).toBe(401);
  });

  test("usage(from, to, keyId) reports GraphQL requests as POST /graphql", async () => {
    const { gql: own, keyId } = await gqlTenant({ scopes: ["*"] });
    for (let i = 0; i < 3; i++) await own.request(`{ memories { total } }`);
    const today = new Date().toISOString().slice(0, 10);
    const q =
      "query($from: String, $to: String, $keyId: ID) { usage(from: $from, to: $to, keyId: $keyId) {\n" +
      "      from to keyId totals { requests errors rateLimited } byDay { day requests } " +
      "byEndpoint { endpoint requests errors rateLimited } byKey { keyId requests } } }";
    let usage: any;
    for (let i = 0; i < 60; i++) {
      usage = (await own.request(q, { from: today, to: today, keyId })).usage;
      if ((usage.byEndpoint.find((e: { endpoint: string }) => e.endpoint === "POST /graphql")?.requests ?? 0) >= 3)
        break;
      await Bun.sleep(100);
    }
    expect(usage).toMatchObject({ from: today, to: today, keyId });
    expect(
      usage.byEndpoint.find((e: { endpoint: string }) => e.endpoint === "POST /graphql").requests,
    ).toBeGreaterThanOrEqual(3);
    expect(usage.byKey).toEqual([{ keyId, requests: usage.totals.requests }]);
  });
});

describe("serving", () => {
  test("every response carries X-Request-Id and the rate-limit headers; a client's request id is kept", async () => {
    const r = await gql.raw(`{ memories(limit: 1) { total } }`, undefined, { "X-Request-Id": "client-trace-0001" });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-request-id")).toBe("client-trace-0001");
    for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"])
      expect(r.headers.get(h)).toMatch(/^\d+$/);
    const err = await gql.raw(`{ memory(id: "${UNKNOWN_ID}") { id } }`, undefined, {
      "X-Request-Id": "client-trace-0002",
    });
    expect(err.errors?.[0]?.extensions.request_id).toBe("client-trace-0002");
  });

  test("queries also work over GET; mutations do not", async () => {
    const { key } = await gqlTenant();
    const get = (q: string) =>
      fetch(`${baseUrl}/graphql?query=${encodeURIComponent(q)}`, {
        headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
      });
    const ok = await get(`{ memories { total } }`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ data: { memories: { total: 0 } } });
    const mutation = await get(`mutation { createTag(input: { name: "x" }) { id } }`);
    expect(mutation.status).toBe(405);
    expect((await mutation.json()).errors[0].extensions.code).toBe("VALIDATION_ERROR");
  });

  test("GET /graphql in a browser serves GraphiQL, without a key and without running anything", async () => {
    const res = await fetch(`${baseUrl}/graphql?query=${encodeURIComponent("{ keys { total } }")}`, {
      headers: { Accept: "text/html" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("x-request-id")).toEqual(expect.any(String));
    const html = await res.text();
    expect(html).toContain("GraphiQL");
    expect(html).not.toContain('"keys"');
  });

  test("introspection works for an authenticated caller", async () => {
    const data = await gql.request(
      "{ __schema { queryType { name } mutationType { name } subscriptionType { name } } " +
        '__type(name: "Memory") { fields { name } } }',
    );
    expect(data.__schema).toEqual({
      queryType: { name: "Query" },
      mutationType: { name: "Mutation" },
      subscriptionType: { name: "Subscription" },
    });
    expect(data.__type.fields.map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(["parent", "children", "ancestors", "tags", "entities", "contentType"]),
    );
    const query = (await gql.request(`{ __type(name: "Query") { fields { name } } }`)).__type.fields.map(
      (f: { name: string }) => f.name,
    );
    expect(query.sort()).toEqual([
      "context",
      "entities",
      "entity",
      "key",
      "keys",
      "memories",
      "memory",
      "search",
      "tag",
      "tags",
      "usage",
      "webhook",
      "webhookDeliveries",
      "webhooks",
    ]);
    const mutation = (await gql.request(`{ __type(name: "Mutation") { fields { name } } }`)).__type.fields.map(
      (f: { name: string }) => f.name,
    );
    expect(mutation.sort()).toEqual(
      [
        "createMemory",
        "updateMemory",
        "deleteMemory",
        "createTag",
        "updateTag",
        "deleteTag",
        "attachTags",
        "detachTag",
        "createEntity",
        "updateEntity",
        "deleteEntity",
        "linkEntityMemories",
        "unlinkEntityMemory",
        "createKey",
        "updateKey",
        "rotateKey",
        "revokeKey",
        "createWebhook",
        "updateWebhook",
        "deleteWebhook",
        "rotateWebhookSecret",
        "testWebhook",
        "retryWebhookDelivery",
      ].sort(),
    );
  });

  test("enum values are the contract's values in GraphQL style", async () => {
    const values = async (name: string) =>
      (
        await gql.request(`query($n: String!) { __type(name: $n) { enumValues { name } } }`, { n: name })
      ).__type.enumValues.map((v: { name: string }) => v.name);
    expect(await values("Scope")).toEqual(["memories:read", "memories:write", "search:read", "admin", "*"].map(E));
    expect(await values("ContentType")).toEqual(["TEXT", "CONVERSATION", "DOCUMENT", "EVENT", "FACT"]);
  });
});
