import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { ISO_MS } from "../memories/memory-helpers";
import { createMemoryWith, createTagWith, gqlTenant, MEMORY_FIELDS, type Gql } from "./graphql-helpers";

/** The memory queries and mutations of /graphql, through graphql-request, against the running stack. */
let gql: Gql;
let api: ApiClient;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  api = t.api;
});

const create = (input: Record<string, unknown>) => createMemoryWith(gql, input);
const createTag = (input: Record<string, unknown>) => createTagWith(gql, input);

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
        `mutation($id: ID!, $input: UpdateMemoryInput!) { updateMemory(id: $id, input: $input) { ${MEMORY_FIELDS} } }`,
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
