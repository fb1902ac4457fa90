import { beforeAll, describe, expect, test } from "bun:test";
import { countOpRequests, gqlTenant, type Gql } from "./graphql-helpers";
import type { ApiClient } from "../api";

/**
 * Issue 5: no N+1. Operation requests are counted on the bus (a separate NATS connection subscribed
 * to `>`) while one query reads 100 memories with their parent, tags and entities.
 */
let gql: Gql;
let api: ApiClient;

async function post(path: string, body: unknown) {
  const r = await api.post(path, body);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  api = t.api;
  const parents = [];
  for (let i = 0; i < 10; i++) parents.push(await post("/v1/memories", { content: `thread ${i}`, tier: "long" }));
  const tags = [];
  for (let i = 0; i < 5; i++) tags.push(await post("/v1/tags", { name: `tag ${i}`, description: `about ${i}` }));
  const threadTag = await post("/v1/tags", { name: "thread", description: "a thread's root" });
  for (const p of parents) await post(`/v1/memories/${p.id}/tags`, { tag_ids: [threadTag.id] });
  const kids: string[] = [];
  for (let i = 0; i < 100; i++) {
    const kid = await post("/v1/memories", { content: `turn ${i}`, parent_memory_id: parents[i % 10].id });
    await post(`/v1/memories/${kid.id}/tags`, { tag_ids: [tags[i % 5].id, tags[(i + 1) % 5].id] });
    kids.push(kid.id);
  }
  for (let i = 0; i < 5; i++)
    await post("/v1/entities", {
      name: `entity ${i}`,
      type: "concept",
      memory_ids: kids.filter((_, k) => k % 5 === i),
    });
}, 120_000);

const QUERY = (limit: number) =>
  `{ memories(filter: { root: false }, limit: ${limit}) {\n` +
  "  total items { id content parent { id content } tags { id name description memoryCount } " +
  "entities { id name memoryCount } } } }";

describe("DataLoaders batch each level into one operation", () => {
  test("100 memories with parent, tags and entities: 4 operation requests", async () => {
    let data: any;
    const counted = await countOpRequests(async () => {
      data = await gql.request(QUERY(100));
    });
    expect(data.memories.total).toBe(100);
    expect(data.memories.items).toHaveLength(100);
    for (const m of data.memories.items) {
      expect(m.parent.content).toMatch(/^thread \d$/);
      expect(m.tags).toHaveLength(2);
      expect(m.tags[0].description).toMatch(/^about \d$/);
      expect(m.entities).toHaveLength(1);
    }
    expect(counted.bySubject).toEqual({
      "memories.list": 1,
      "memories.getMany": 1,
      "tags.getMany": 1,
      "entities.getMany": 1,
    });
  });

  test("the number of requests does not grow with the number of memories", async () => {
    const small = await countOpRequests(() => gql.request(QUERY(5)));
    const large = await countOpRequests(() => gql.request(QUERY(100)));
    expect(large.total).toBe(small.total);
  });

  test("tags asked only for id, name and color come with the memories: no tag request at all", async () => {
    const counted = await countOpRequests(() =>
      gql.request(`{ memories(limit: 100) { items { id tags { id name color } } } }`),
    );
    expect(counted.bySubject).toEqual({ "memories.list": 1 });
  });

  test("two levels up and the tags of every level: one batch per level (loaded tags are not asked again)", async () => {
    const counted = await countOpRequests(() =>
      gql.request(
        "{ memories(filter: { root: false }, limit: 100) { items { tags { description } " +
          "parent { tags { description } parent { id } } } } }",
      ),
    );
    expect(counted.bySubject).toEqual({ "memories.list": 1, "memories.getMany": 1, "tags.getMany": 2 });
  });

  test("a memory already read in the request is not read again as a parent", async () => {
    const counted = await countOpRequests(() =>
      gql.request(`{ memories(limit: 100, order: ASC) { items { id parent { id } } } }`),
    );
    expect(counted.bySubject).toEqual({ "memories.list": 1 }); // the 10 oldest are the parents: all on the one page
  });
});
