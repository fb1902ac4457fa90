import { beforeAll, describe, expect, test } from "bun:test";
import { getIntrospectionQuery } from "graphql";
import { testStack } from "../harness";
import { countOpRequests, fanOutQuery, gqlTenant, type Gql, type GqlResponse } from "./graphql-helpers";

/** Issue 5: abusive documents are refused before any resolver runs (no service call), with a clear error. */
let gql: Gql;
let memoryId: string;
let key: string;
let baseUrl: string;

beforeAll(async () => {
  const t = await gqlTenant();
  gql = t.gql;
  key = t.key;
  baseUrl = (await testStack()).baseUrl;
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
  for (const e of r.errors!)
    expect(e.extensions).toMatchObject({ code: "VALIDATION_ERROR", request_id: r.headers.get("x-request-id") });
  return r;
}

const withConstraint = (r: GqlResponse, constraint: string) =>
  r.errors!.find((e) => e.extensions.details?.constraint === constraint);

describe("limits of a document", () => {
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

  test("more than 50 directives are refused", async () => {
    const e = withConstraint(
      await refused(`{ memories { ${"total @include(if: true) ".repeat(51)} } }`),
      "max_directives",
    )!;
    expect(e.message).toBe("Directives limit of 50 exceeded, found 51.");
    expect(e.extensions.details).toEqual({ field: "query", constraint: "max_directives", max: 50 });
  });

  test("GraphiQL's full introspection query passes every limit", async () => {
    const data = await gql.request(getIntrospectionQuery());
    expect(data.__schema.types.length).toBeGreaterThan(30);
  });
});

describe("list-aware call budget (fan-out)", () => {
  test("nested lists whose limits multiply past 250 service calls are refused", async () => {
    const e = withConstraint(
      await refused(`{ memories(limit: 100) { items { children(limit: 100) { items { children { total } } } } } }`),
      "max_calls",
    )!;
    expect(e.message).toBe(
      "Query too expensive: it could make 10101 service calls, the limit is 250. " +
        "Lower the `limit` of nested lists or split the query.",
    );
    expect(e.extensions.details).toEqual({ field: "query", constraint: "max_calls", max: 250 });
  });

  test("a variable limit counts as the maximum; fragments are followed", async () => {
    const query =
      "query($n: Int) { memories(limit: $n) { ...P } } " +
      "fragment P on MemoryPage { items { ancestors { children(limit: 1) { total } } } }";
    expect(withConstraint(await refused(query), "max_calls")!.message).toContain("it could make 6501 service calls");
  });

  test("the same shape with small limits, and batched fields at any width, are allowed", async () => {
    expect(
      await gql.request(
        `{ memories(limit: 10) { items { children(limit: 10) { items { children(limit: 2) { total } } } } } }`,
      ),
    ).toHaveProperty("memories");
    expect(
      await gql.request(
        `{ memories(limit: 100) { items { parent { parent { tags { id } entities { id } } } tags { description } } } }`,
      ),
    ).toHaveProperty("memories");
  });
});

describe("fragment fan-out", () => {
  const post = (query: string) =>
    fetch(`${baseUrl}/graphql`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/json",
        Accept: "application/graphql-response+json",
      },
      body: JSON.stringify({ query }),
    });
  const timed = async <T>(fn: () => Promise<T>) => {
    const started = performance.now();
    const value = await fn();
    return { value, ms: performance.now() - started };
  };

  /** One round: 20 new fan-outs one after another, while /healthz is asked one request after another. */
  async function round(tag: string) {
    let done = false;
    const health: number[] = [];
    const poll = (async () => {
      while (!done) {
        const { value: res, ms } = await timed(() => fetch(`${baseUrl}/healthz`));
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        health.push(ms);
      }
    })();
    const refusals: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { value: res, ms } = await timed(() => post(fanOutQuery(130, `${tag}${i}x`)));
      expect(res.status).toBe(400);
      await res.arrayBuffer();
      refusals.push(ms);
    }
    done = true;
    await poll;
    return { refusal: Math.max(...refusals), health: Math.max(...health), healthSamples: health.length };
  }

  test("130 levels of 3 spreads: refused in < 250 ms; /healthz < 250 ms during 20 of them", async () => {
    const query = fanOutQuery(130, "Warm");
    expect(query.length).toBeGreaterThan(6000);
    const first = await post(query); // warms the gateway's code paths
    expect(first.status).toBe(400);
    const body = await first.json();
    const details = body.errors.map((e: any) => e.extensions.details);
    expect(details).toEqual([{ field: "query", constraint: "max_cost", max: 5000 }]);

    // Unbounded, one such request holds the event loop for longer than the test runs; measured, it takes about
    // 2 ms. The bound is loose because the machine is shared: the figures are worst cases over a round, and
    // the best of three rounds is kept.
    let best = { refusal: Infinity, health: Infinity, healthSamples: 0 };
    for (let r = 0; r < 3 && (best.refusal >= 250 || best.health >= 250); r++) {
      const got = await round(`R${r}n`);
      if (Math.max(got.refusal, got.health) < Math.max(best.refusal, best.health)) best = got;
    }
    expect(best.healthSamples).toBeGreaterThan(0);
    expect(best.refusal).toBeLessThan(250);
    expect(best.health).toBeLessThan(250);
  });

  test("20 at once are all refused, in about the time of 20 small requests", async () => {
    const statuses = () => Array.from({ length: 20 }, (_, i) => post(fanOutQuery(130, `C${i}x`)).then((r) => r.status));
    const burst = await timed(() => Promise.all(statuses()));
    expect(burst.value).toEqual(Array(20).fill(400));
    expect(burst.ms).toBeLessThan(20 * 50);
  });
});
