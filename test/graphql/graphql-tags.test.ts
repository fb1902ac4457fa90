import { beforeAll, describe, expect, test } from "bun:test";
import { createMemoryWith, createTagWith, gqlTenant, TAG_FIELDS, type Gql } from "./graphql-helpers";

/** The tag queries and mutations of /graphql, links to memories included. */
let gql: Gql;

beforeAll(async () => {
  gql = (await gqlTenant()).gql;
});

const create = (input: Record<string, unknown>) => createMemoryWith(gql, input);
const createTag = (input: Record<string, unknown>) => createTagWith(gql, input);

describe("tags", () => {
  test("createTag, tag, tags(search, sort, order), updateTag, deleteTag", async () => {
    const { gql: own } = await gqlTenant();
    const create = async (input: Record<string, unknown>) =>
      (await own.request(`mutation($input: CreateTagInput!) { createTag(input: $input) { ${TAG_FIELDS} } }`, { input }))
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
    expect((await own.request(`query($id: ID!) { tag(id: $id) { ${TAG_FIELDS} } }`, { id: a.id })).tag).toEqual(a);
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
