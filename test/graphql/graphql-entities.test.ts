import { beforeAll, describe, expect, test } from "bun:test";
import { createMemoryWith, ENTITY_FIELDS, gqlTenant, type Gql } from "./graphql-helpers";

/** The entity queries and mutations of /graphql, links to memories included. */
let gql: Gql;

beforeAll(async () => {
  gql = (await gqlTenant()).gql;
});

const create = (input: Record<string, unknown>) => createMemoryWith(gql, input);

describe("entities", () => {
  test("createEntity (with links), entity, entities(search, type), updateEntity, deleteEntity", async () => {
    const { gql: own } = await gqlTenant();
    const m = (await own.request(`mutation { createMemory(input: { content: "met Ann" }) { id } }`)).createMemory;
    const e = (
      await own.request(
        `mutation($input: CreateEntityInput!) { createEntity(input: $input) { ${ENTITY_FIELDS} ` +
          "memories { items { id } } } }",
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
