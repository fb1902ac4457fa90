import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { ISO_MS } from "../memories/memory-helpers";
import { gqlClient, gqlTenant } from "./graphql-helpers";

/** The admin part of /graphql: keys and usage. */
let baseUrl: string;

beforeAll(async () => {
  baseUrl = (await testStack()).baseUrl;
});

describe("keys and usage (admin)", () => {
  test("createKey returns the secret once; keys lists without it; revokeKey stops the key", async () => {
    const { gql: admin } = await gqlTenant({ scopes: ["admin", "memories:read", "search:read"] });
    const created = (
      await admin.request(
        'mutation { createKey(input: { name: "frontend", scopes: [MEMORIES_READ, SEARCH_READ], ' +
          "rateLimit: 600, environment: TEST }) {\n" +
          "      key message apiKey { id name prefix scopes rateLimit plan environment tenantId " +
          "expiresAt createdAt lastUsedAt revokedAt } } }",
      )
    ).createKey;
    expect(created.key).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
    expect(created.message).toEqual(expect.any(String));
    expect(created.apiKey).toMatchObject({
      name: "frontend",
      scopes: ["MEMORIES_READ", "SEARCH_READ"],
      rateLimit: 600,
      environment: "TEST",
      expiresAt: null,
      revokedAt: null,
    });
    expect(created.key.startsWith(created.apiKey.prefix)).toBe(true);
    const fresh = gqlClient(baseUrl, created.key);
    expect((await fresh.request(`{ memories { total } }`)).memories.total).toBe(0);

    const keys = (await admin.request(`{ keys(limit: 10) { total limit offset hasMore items { id name scopes } } }`))
      .keys;
    expect(keys).toMatchObject({ total: 2, limit: 10, offset: 0, hasMore: false });
    expect(keys.items.map((k: { name: string }) => k.name).sort()).toEqual(["frontend", "test"]);

    const revoked = (
      await admin.request(`mutation($id: ID!) { revokeKey(id: $id) { id revoked revokedAt } }`, {
        id: created.apiKey.id,
      })
    ).revokeKey;
    expect(revoked).toEqual({ id: created.apiKey.id, revoked: true, revokedAt: expect.stringMatching(ISO_MS) });
    let status = 200;
    for (let i = 0; i < 40 && status !== 401; i++) {
      status = (await fresh.raw(`{ memories { total } }`)).status;
      if (status !== 401) await Bun.sleep(50);
    }
    expect(status).toBe(401);
  });

  test("usage(from, to, keyId) reports GraphQL requests as POST /graphql", async () => {
    const { gql: own, keyId } = await gqlTenant({ scopes: ["*"] });
    for (let i = 0; i < 3; i++) await own.request(`{ memories { total } }`);
    const today = new Date().toISOString().slice(0, 10);
    const q =
      "query($from: String, $to: String, $keyId: ID) { usage(from: $from, to: $to, keyId: $keyId) {\n" +
      "      from to keyId totals { requests errors rateLimited } byDay { day requests } " +
      "byEndpoint { endpoint requests errors rateLimited } byKey { keyId requests } } }";
    let usage: any;
    for (let i = 0; i < 60; i++) {
      usage = (await own.request(q, { from: today, to: today, keyId })).usage;
      if ((usage.byEndpoint.find((e: { endpoint: string }) => e.endpoint === "POST /graphql")?.requests ?? 0) >= 3)
        break;
      await Bun.sleep(100);
    }
    expect(usage).toMatchObject({ from: today, to: today, keyId });
    expect(
      usage.byEndpoint.find((e: { endpoint: string }) => e.endpoint === "POST /graphql").requests,
    ).toBeGreaterThanOrEqual(3);
    expect(usage.byKey).toEqual([{ keyId, requests: usage.totals.requests }]);
  });
});
