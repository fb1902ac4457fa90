import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { E, gqlTenant, UNKNOWN_ID, type Gql } from "./graphql-helpers";

/** Serving /graphql: request ids and rate-limit headers, GET, GraphiQL, introspection and enum names. */
let gql: Gql;
let baseUrl: string;

beforeAll(async () => {
  gql = (await gqlTenant()).gql;
  baseUrl = (await testStack()).baseUrl;
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
    expect(html).toMatch(/<script defer src="\/dashboard\/assets\/graphiql-[a-z0-9]+\.js"><\/script>/);
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
      "tenant",
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
        "createMemories",
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
        "updateTenant",
        "eraseTenant",
        "createToken",
      ].sort(),
    );
  });

  test("enum values are the contract's values in GraphQL style", async () => {
    const values = async (name: string) =>
      (
        await gql.request(`query($n: String!) { __type(name: $n) { enumValues { name } } }`, { n: name })
      ).__type.enumValues.map((v: { name: string }) => v.name);
    expect(await values("Scope")).toEqual(
      ["memories:read", "memories:write", "search:read", "admin", "tokens:create", "*"].map(E),
    );
    expect(await values("ContentType")).toEqual(["TEXT", "CONVERSATION", "DOCUMENT", "EVENT", "FACT"]);
  });
});
