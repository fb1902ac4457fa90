import { describe, expect, test } from "bun:test";
import { expectGqlError, gqlTenant, UNKNOWN_ID } from "./graphql-helpers";

/** Scopes in GraphQL: each field checks the scope of its own operation, as REST does per route. */

describe("scopes are checked per field, with the operation's own scope", () => {
  test("a memories:read key reads memories but gets FORBIDDEN on createTag, keys and usage", async () => {
    const reader = await gqlTenant({ scopes: ["memories:read"] });
    const r = await reader.gql.raw(`{ memories { total } keys { total } }`);
    expect(r.data).toEqual({ memories: { total: 0 }, keys: null });
    expectGqlError(r, "FORBIDDEN", "Missing required scope: admin", undefined, ["keys"]);
    const w = await reader.gql.raw(`mutation { createTag(input: { name: "nope" }) { id } }`);
    expectGqlError(w, "FORBIDDEN", "Missing required scope: memories:write", undefined, ["createTag"]);
    expect(w.status).toBe(200);
    expectGqlError(
      await reader.gql.raw(`{ usage { totals { requests } } }`),
      "FORBIDDEN",
      "Missing required scope: admin",
      undefined,
      ["usage"],
    );
    expectGqlError(
      await reader.gql.raw(`mutation { createKey(input: { name: "k" }) { key } }`),
      "FORBIDDEN",
      "Missing required scope: admin",
      undefined,
      ["createKey"],
    );
    expectGqlError(
      await reader.gql.raw(`mutation { revokeKey(id: "${UNKNOWN_ID}") { id } }`),
      "FORBIDDEN",
      "Missing required scope: admin",
      undefined,
      ["revokeKey"],
    );
    // REST says the same for the same key.
    const rest = await reader.api.post("/v1/tags", { name: "nope" });
    expect(rest.body.error).toEqual({ code: "FORBIDDEN", message: "Missing required scope: memories:write" });
  });

  test("nested fields check their own operation: a write-only key creates, but cannot read the parent", async () => {
    const owner = await gqlTenant();
    const writer = await gqlTenant({ scopes: ["memories:write"], tenant: owner.tenant });
    const root = (await owner.api.post("/v1/memories", { content: "root" })).body.data;
    const r = await writer.gql.raw(
      `mutation($p: ID!) { createMemory(input: { content: "kid", parentMemoryId: $p }) { content parent { id } } }`,
      { p: root.id },
    );
    expect(r.data).toEqual({ createMemory: { content: "kid", parent: null } });
    expectGqlError(r, "FORBIDDEN", "Missing required scope: memories:read", undefined, ["createMemory", "parent"]);
    expectGqlError(
      await writer.gql.raw(`{ memories { total } }`),
      "FORBIDDEN",
      "Missing required scope: memories:read",
      undefined,
      ["memories"],
    );
  });

  test("admin-only keys: keys and usage work, memories do not", async () => {
    const admin = await gqlTenant({ scopes: ["admin"] });
    const r = await admin.gql.raw(`{ keys { total } memories { total } }`);
    expect(r.data).toEqual({ keys: { total: 1 }, memories: null });
    expectGqlError(r, "FORBIDDEN", "Missing required scope: memories:read", undefined, ["memories"]);
  });
});
