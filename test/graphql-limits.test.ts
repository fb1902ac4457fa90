import { beforeAll, describe, expect, test } from "bun:test";
import { getIntrospectionQuery } from "graphql";
import { countOpRequests, gqlTenant, type Gql, type GqlResponse } from "./graphql-helpers";

/** Issue 5: abusive documents are refused before any resolver runs (no service call), with a clear error. */
let gql: Gql;
let memoryId: string;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  memoryId = (await t.api.post("/v1/memories", { content: "m" })).body.data.id;
});

/** Runs a document that must be refused; answers its errors and proves no operation was called. */
async function refused(query: string): Promise<GqlResponse> {
  let r!: GqlResponse;
  const counted = await countOpRequests(async () => {
    r = await gql.raw(query);
  });
  expect(r.status).toBe(400);
  expect(r.data).toBeUndefined();
  expect(counted.total).toBe(0);
  for (const e of r.errors!) expect(e.extensions).toMatchObject({ code: "VALIDATION_ERROR", request_id: r.headers.get("x-request-id") });
  return r;
}

const withConstraint = (r: GqlResponse, constraint: string) => r.errors!.find((e) => e.extensions.details?.constraint === constraint);

describe("graphql-armor limits", () => {
  test("a depth-40 query is refused: max depth 10", async () => {
    const query = `{ memories { items { ${"parent { ".repeat(40)}id${" }".repeat(40)} } } }`;
    const r = await refused(query);
    const e = withConstraint(r, "max_depth")!;
    expect(e.message).toBe("Query depth limit of 10 exceeded, found 43.");
    expect(e.extensions.details).toEqual({ field: "query", constraint: "max_depth", max: 10 });
  });

  test("depth 10 is allowed", async () => {
    const query = `query($id: ID!) { memory(id: $id) { ${"parent { ".repeat(8)}id${" }".repeat(8)} } }`;
    expect(await gql.request(query, { id: memoryId })).toEqual({ memory: { parent: null } });
  });

  test("more than 15 aliases are refused", async () => {
    const fields = Array.from({ length: 16 }, (_, i) => `a${i}: memories(limit: 1) { total }`).join(" ");
    const e = withConstraint(await refused(`{ ${fields} }`), "max_aliases")!;
    expect(e.message).toBe("Aliases limit of 15 exceeded, found 16.");
    expect(e.extensions.details).toEqual({ field: "query", constraint: "max_aliases", max: 15 });
    expect(await gql.request(`{ ${fields.split(" a15:")[0]} }`)).toHaveProperty("a14");
  });

  test("a query over the cost limit is refused", async () => {
    const query = `{ memories { items { ${"parent { ".repeat(6)}${"id ".repeat(200)}${"}".repeat(6)} } } }`;
    const e = withConstraint(await refused(query), "max_cost")!;
    expect(e.message).toBe("Query Cost limit of 5000 exceeded, found 5224.296875.");
    expect(e.extensions.details).toEqual({ field: "query", constraint: "max_cost", max: 5000 });
  });

  test("more than 2000 tokens are refused while parsing", async () => {
    const r = await refused(`{ memories { ${"total ".repeat(2100)} } }`);
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]!.message).toBe("Token limit of 2000 exceeded.");
    expect(r.errors![0]!.extensions.details).toEqual({ field: "query", constraint: "max_tokens", max: 2000 });
  });

  test("GraphiQL's full introspection query passes every limit", async () => {
    const data = await gql.request(getIntrospectionQuery());
    expect(data.__schema.types.length).toBeGreaterThan(30);
  });
});

describe("list-aware call budget (fan-out)", () => {
  test("nested lists whose limits multiply past 250 service calls are refused", async () => {
    const e = withConstraint(await refused(`{ memories(limit: 100) { items { children(limit: 100) { items { children { total } } } } } }`), "max_calls")!;
    expect(e.message).toBe("Query too expensive: it could make 10101 service calls, the limit is 250. Lower the `limit` of nested lists or split the query.");
    expect(e.extensions.details).toEqual({ field: "query", constraint: "max_calls", max: 250 });
  });

  test("a variable limit counts as the maximum; fragments are followed", async () => {
    const query = `query($n: Int) { memories(limit: $n) { ...P } } fragment P on MemoryPage { items { ancestors { children(limit: 1) { total } } } }`;
    expect(withConstraint(await refused(query), "max_calls")!.message).toContain("it could make 6501 service calls");
  });

  test("the same shape with small limits, and batched fields at any width, are allowed", async () => {
    expect(await gql.request(`{ memories(limit: 10) { items { children(limit: 10) { items { children(limit: 2) { total } } } } } }`)).toHaveProperty("memories");
    expect(await gql.request(`{ memories(limit: 100) { items { parent { parent { tags { id } entities { id } } } tags { description } } } }`)).toHaveProperty("memories");
  });
});
