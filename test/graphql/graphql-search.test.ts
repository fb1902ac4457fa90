import { beforeAll, describe, expect, test } from "bun:test";
import { countOpRequests, expectGqlError, gqlTenant, toRest, type Gql } from "./graphql-helpers";
import type { ApiClient } from "../api";

/** Issue 5: `search` and `context` call the same operations as POST /v1/search and /v1/context. */
const MEMORY =
  "id content contentType tier memoryNature parentMemoryId externalId metadata entityIds createdAt updatedAt " +
  "occurredAt expiresAt supersedes supersededBy validTo tags { id name color }";
let gql: Gql;
let api: ApiClient;
let root: any;
let tagId: string;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  api = t.api;
  root = (await api.post("/v1/memories", { content: "Trip planning with Ann for Lisbon", tier: "long" })).body.data;
  tagId = (await api.post("/v1/tags", { name: "travel" })).body.data.id;
  const lines = [
    "We booked the flight to Lisbon for May",
    "Ann prefers a hotel near the river",
    "Dinner plans: grilled sardines in Alfama",
    "Remember to renew the passport",
  ];
  for (const content of lines) {
    const m = (await api.post("/v1/memories", { content, parent_memory_id: root.id, metadata: { topic: "trip" } })).body
      .data;
    await api.post(`/v1/memories/${m.id}/tags`, { tag_ids: [tagId] });
  }
  await api.post("/v1/memories", { content: "Unrelated note about the garden" });
  // The index also converges from events, after the writes returned: compare once scores are stable.
  let last = "";
  for (let i = 0; i < 50; i++) {
    const now = JSON.stringify((await api.post("/v1/search", { query: "Lisbon hotel flight" })).body.data);
    if (now === last) break;
    last = now;
    await Bun.sleep(100);
  }
});

/** REST's hit is the memory with `score` and `scores` beside its fields. */
const hitToRest = (h: any) => ({ ...toRest(h.memory), score: h.score, scores: h.scores });

describe("search", () => {
  test("returns what POST /v1/search returns, with filters", async () => {
    const body = {
      query: "Lisbon hotel flight",
      limit: 3,
      tags: [tagId],
      tags_match: "all",
      parent_memory_id: root.id,
      metadata: { topic: "trip" },
    };
    const rest = await api.post("/v1/search", body);
    expect(rest.status).toBe(200);
    const data = await gql.request(
      "query($i: SearchInput!) { search(input: $i) { " +
        `results { score scores { semantic lexical thread entity } memory { ${MEMORY} } } } }`,
      {
        i: {
          query: "Lisbon hotel flight",
          limit: 3,
          tags: [tagId],
          tagsMatch: "ALL",
          parentMemoryId: root.id,
          metadata: { topic: "trip" },
        },
      },
    );
    expect(data.search.results.length).toBeGreaterThan(0);
    expect(data.search.results.map(hitToRest)).toEqual(rest.body.data.results);
  });

  test("match-all with a tier filter", async () => {
    const rest = await api.post("/v1/search", { query: "*", tier: "long" });
    const data = await gql.request(
      '{ search(input: { query: "*", tier: LONG }) { ' +
        `results { score scores { semantic lexical thread entity } memory { ${MEMORY} } } } }`,
    );
    expect(data.search.results.map(hitToRest)).toEqual(rest.body.data.results);
    expect(data.search.results.map((h: any) => h.memory.id)).toEqual([root.id]);
  });

  test("hits walk the graph with batched loads: the number of calls does not grow with the hits", async () => {
    const query = (limit: number) =>
      `{ search(input: { query: "*", limit: ${limit} }) { ` +
      "results { memory { id parent { id content } tags { description memoryCount } } } } }";
    let data: any;
    const large = await countOpRequests(async () => {
      data = await gql.request(query(50));
    });
    expect(data.search.results).toHaveLength(6);
    expect(data.search.results.filter((h: any) => h.memory.parent?.id === root.id)).toHaveLength(4);
    const small = await countOpRequests(() => gql.request(query(2)));
    expect(large.total).toBeLessThanOrEqual(small.total); // 50 hits: the parents are hits too, read with them
    expect(small.total).toBeLessThanOrEqual(4);
    expect(large.bySubject["search.query"]).toBe(1);
    expect(large.bySubject["tags.getMany"]).toBe(1);
    // Any memories.getMany is the search service's own hydration: parents that are hits come from the hits.
    expect(large.bySubject["memories.getMany"] ?? 0).toBeLessThanOrEqual(1);
  });

  test("errors as REST: validation, scope", async () => {
    const rest = await api.post("/v1/search", { query: "" });
    expectGqlError(
      await gql.raw(`{ search(input: { query: "" }) { results { score } } }`),
      rest.body.error.code,
      rest.body.error.message,
      rest.body.error.details,
      ["search"],
    );
    const restLimit = await api.post("/v1/search", { query: "x", limit: 101 });
    expectGqlError(
      await gql.raw(`{ search(input: { query: "x", limit: 101 }) { results { score } } }`),
      "VALIDATION_ERROR",
      restLimit.body.error.message,
      restLimit.body.error.details,
      ["search"],
    );
    const reader = await gqlTenant({ scopes: ["memories:read"] });
    expectGqlError(
      await reader.gql.raw(`{ search(input: { query: "x" }) { results { score } } }`),
      "FORBIDDEN",
      "Missing required scope: search:read",
      undefined,
      ["search"],
    );
    expectGqlError(
      await reader.gql.raw(`{ context(input: { query: "x" }) { context } }`),
      "FORBIDDEN",
      "Missing required scope: search:read",
      undefined,
      ["context"],
    );
  });
});

describe("context", () => {
  test("returns what POST /v1/context returns", async () => {
    const body = {
      query: "Where do we stay in Lisbon?",
      max_tokens: 200,
      limit: 3,
      include_ancestors: true,
      neighbors: 1,
      format: "markdown",
    };
    const rest = await api.post("/v1/context", body);
    expect(rest.status).toBe(200);
    const data = await gql.request(
      "query($i: ContextInput!) { context(input: $i) { context tokenCount truncated omitted { id role score } " +
        `memories { role score memory { ${MEMORY} } } } }`,
      {
        i: {
          query: "Where do we stay in Lisbon?",
          maxTokens: 200,
          limit: 3,
          includeAncestors: true,
          neighbors: 1,
          format: "MARKDOWN",
        },
      },
    );
    const c = data.context;
    expect(c.context.length).toBeGreaterThan(0);
    expect({
      context: c.context,
      token_count: c.tokenCount,
      truncated: c.truncated,
      omitted: toRest(c.omitted),
      memories: c.memories.map((m: any) => ({ ...toRest(m.memory), role: toRest(m.role, "role"), score: m.score })),
    }).toEqual(rest.body.data);
  });
});
