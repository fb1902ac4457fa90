import { describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { expectGqlError, gqlClient, gqlTenant, toRest } from "./graphql-helpers";

/** A memory's life over GraphQL: the same operations and answers as REST (test/memories/*-lifecycle tests). */
const LIFE = "id occurredAt expiresAt supersedes supersededBy validTo createdAt";

describe("GraphQL: occurredAt, expiry, supersession, tenant settings", () => {
  test("createMemory / updateMemory take a memory's life, and answer what REST reads", async () => {
    const { gql, api } = await gqlTenant();
    const old = await gql.request(
      "mutation { createMemory(input: " +
        `{ content: "v1", occurredAt: "2020-01-01T00:00:00Z", ttlSeconds: 3600 }) { ${LIFE} } }`,
    );
    const now = await gql.request(
      `mutation($s: ID!) { createMemory(input: { content: "v2", supersedes: $s, expiresAt: null }) { ${LIFE} } }`,
      { s: old.createMemory.id },
    );
    expect(now.createMemory).toMatchObject({ supersedes: old.createMemory.id, expiresAt: null });
    const read = await gql.request(`query($id: ID!) { memory(id: $id) { ${LIFE} } }`, { id: old.createMemory.id });
    expect(toRest(read.memory)).toEqual(
      Object.fromEntries(
        Object.entries((await api.get(`/v1/memories/${old.createMemory.id}`)).body.data).filter(([k]) =>
          ["id", "occurred_at", "expires_at", "supersedes", "superseded_by", "valid_to", "created_at"].includes(k),
        ),
      ),
    );
    expect(read.memory).toMatchObject({
      occurredAt: "2020-01-01T00:00:00.000Z",
      supersededBy: now.createMemory.id,
      validTo: now.createMemory.occurredAt,
    });
    const patched = await gql.request(
      "mutation($id: ID!) { updateMemory(id: $id, " +
        `input: { expiresAt: null, occurredAt: "2019-05-05T05:05:05Z" }) { ${LIFE} } }`,
      { id: old.createMemory.id },
    );
    expect(patched.updateMemory).toMatchObject({ expiresAt: null, occurredAt: "2019-05-05T05:05:05.000Z" });
    const refused = await gql.raw(
      `mutation { createMemory(input: { content: "x", ttlSeconds: 5, expiresAt: "2999-01-01T00:00:00Z" }) { id } }`,
    );
    expectGqlError(refused, "VALIDATION_ERROR", "Give expires_at or ttl_seconds, not both", {
      field: "ttl_seconds",
      constraint: "exclusive",
    });
  });

  test("memories sorted by OCCURRED_AT and filtered; search and context with latestOnly and asOf", async () => {
    const { gql, api } = await gqlTenant();
    for (const year of [2021, 2019, 2020])
      await api.post("/v1/memories", { content: `note of ${year}`, occurred_at: `${year}-01-01T00:00:00Z` });
    const a = (await api.post("/v1/memories", { content: "zqfact one", occurred_at: "2018-01-01T00:00:00Z" })).body
      .data;
    const b = (await api.post("/v1/memories", { content: "zqfact two", supersedes: a.id })).body.data;
    const list = await gql.request(
      "{ memories(sort: OCCURRED_AT, order: ASC, " +
        'filter: { occurredAfter: "2018-06-01T00:00:00Z", occurredBefore: "2022-01-01T00:00:00Z" }) ' +
        "{ total items { content } } }",
    );
    expect(list.memories.items.map((m: { content: string }) => m.content)).toEqual([
      "note of 2019",
      "note of 2020",
      "note of 2021",
    ]);
    const rest = await api.get(
      "/v1/memories?sort=occurred_at&order=asc" +
        "&occurred_after=2018-06-01T00:00:00Z&occurred_before=2022-01-01T00:00:00Z",
    );
    expect(list.memories.total).toBe(rest.body.meta.total);
    const found = await gql.request(
      `{ latest: search(input: { query: "zqfact", latestOnly: true }) { results { memory { id } } }
         then: search(input: { query: "zqfact", asOf: "2019-01-01T00:00:00Z" }) { results { memory { id } } }
         context(input: { query: "zqfact", latestOnly: true }) { memories { memory { id } } } }`,
    );
    // Every memory gets some semantic score: look at the two versions of the fact.
    const facts = (xs: any[]) => xs.map((r) => r.memory.id).filter((id: string) => id === a.id || id === b.id);
    expect(facts(found.latest.results)).toEqual([b.id]);
    expect(facts(found.then.results)).toEqual([a.id]);
    expect(facts(found.context.memories)).toEqual([b.id]);
  });

  test("tenant / updateTenant need admin and answer what REST does", async () => {
    const { gql, api } = await gqlTenant();
    const SETTINGS =
      "tenantId environment retention { short medium long cascade } quota { memories bytes } " +
      "cors { allowedOrigins } updatedAt";
    const set = await gql.request(
      `mutation { updateTenant(input: { retention: { short: 30, long: 365, cascade: true } }) { ${SETTINGS} } }`,
    );
    expect(set.updateTenant.retention).toEqual({ short: 30, medium: null, long: 365, cascade: true });
    const cleared = await gql.request(
      `mutation { updateTenant(input: { retention: { long: null } }) { ${SETTINGS} } }`,
    );
    expect(cleared.updateTenant.retention.long).toBeNull();
    const read = await gql.request(`{ tenant { ${SETTINGS} } }`);
    expect(toRest(read.tenant)).toEqual((await api.get("/v1/tenant")).body.data);
    expect(read.tenant.environment).toBe("LIVE");

    const stack = await testStack();
    const writer = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["memories:read", "memories:write"] });
    const forbidden = await gqlClient(stack.baseUrl, writer.key).raw(`{ tenant { tenantId } }`);
    expectGqlError(forbidden, "FORBIDDEN", "Missing required scope: admin", undefined, ["tenant"]);
    const bad = await gql.raw(`mutation { updateTenant(input: { retention: { short: 0 } }) { tenantId } }`);
    expectGqlError(bad, "VALIDATION_ERROR", "retention.short must be >= 1", {
      field: "retention.short",
      constraint: "minimum",
      min: 1,
    });
  });
});
