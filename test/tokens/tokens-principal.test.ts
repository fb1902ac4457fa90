import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { stackRedis, testStack } from "../harness";
import { apiClient, newTenant, type ApiClient, type ApiResponse } from "../api";
import { gqlClient } from "../graphql/graphql-helpers";
import { expectEnvelopeError } from "../envelope-helpers";
import { callTool, httpClient } from "../mcp/mcp-client";
import { keyspace } from "../../services/memory-data/keyspace";
import type { RedisClient } from "../../services/kit/redis-functions";
import type { Stack } from "../../scripts/stack/launch";

/**
 * A browser token is a principal of its own, not its minting key: a kept Idempotency-Key answer is replayed only
 * to the token that got it (never to a sibling token of the same key, nor to the key), and the rules that hang
 * on the key (its plan's storage quota) bind the token as they bind the key.
 */
let stack: Stack;
let redis: RedisClient;

beforeAll(async () => {
  stack = await testStack();
  redis = stackRedis(stack);
}, 90_000);
afterAll(() => redis.disconnect());

const WRITE = ["memories:read", "memories:write", "search:read"];

async function tokenOf(key: ApiClient, restrict?: Record<string, unknown>): Promise<string> {
  const res = await key.post("/v1/tokens", { scopes: WRITE, ...(restrict ? { restrict } : {}) });
  expect(res.status).toBe(200);
  return res.body.data.token;
}

/** One REST request with an Idempotency-Key. */
const keyed = (credential: string, method: string, path: string, body: unknown, idem: string) =>
  apiClient(stack.baseUrl, credential).raw(method, path, body, { "Idempotency-Key": idem });

const replayed = (res: ApiResponse) => res.headers.get("idempotent-replayed") === "true";

describe("Idempotency-Key: one namespace per token", () => {
  test("another token of the key never gets a token's kept answer: it runs its own request (404 outside)", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const a = await tokenOf(t.api, { metadata: { user_id: "u_a" } });
    const b = await tokenOf(t.api, { metadata: { user_id: "u_b" } });
    const made = await apiClient(stack.baseUrl, a).post("/v1/memories", { content: "A's secret" });
    expect(made.status).toBe(200);
    const id = made.body.data.id;
    const idem = crypto.randomUUID();
    const first = await keyed(a, "PATCH", `/v1/memories/${id}`, {}, idem);
    expect(first.status).toBe(200);
    const stolen = await keyed(b, "PATCH", `/v1/memories/${id}`, {}, idem);
    expectEnvelopeError(stolen, 404, "NOT_FOUND");
    expect(replayed(stolen)).toBe(false);
    expect(JSON.stringify(stolen.body)).not.toContain("A's secret");
    // The key itself is another principal too, and the token that got the answer still gets it again.
    const byKey = await keyed(t.key, "PATCH", `/v1/memories/${id}`, {}, idem);
    expect([byKey.status, replayed(byKey)]).toEqual([200, false]);
    const again = await keyed(a, "PATCH", `/v1/memories/${id}`, {}, idem);
    expect([again.status, replayed(again)]).toEqual([200, true]);
    expect(again.body).toEqual(first.body);
  });

  test("two tokens' different requests with one key: no 422 across; each token replays its own", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const [a, b] = [await tokenOf(t.api), await tokenOf(t.api)];
    const idem = crypto.randomUUID();
    // POST /v1/memories claims its key inside the create; a batch is claimed by the gateway: both paths.
    for (const [path, body] of [
      ["/v1/memories", (who: string) => ({ content: `by ${who}` })],
      ["/v1/memories/batch", (who: string) => ({ items: [{ content: `batch by ${who}` }] })],
    ] as const) {
      const key = `${idem}-${path}`;
      const byA = await keyed(a, "POST", path, body("a"), key);
      const byB = await keyed(b, "POST", path, body("b"), key);
      expect([byA.status, replayed(byA)]).toEqual([200, false]);
      expect([byB.status, replayed(byB)]).toEqual([200, false]);
      expect(JSON.stringify(byB.body)).toContain("by b");
      for (const [who, first] of [
        [a, byA],
        [b, byB],
      ] as const) {
        const again = await keyed(who, "POST", path, body(who === a ? "a" : "b"), key);
        expect([again.status, replayed(again), again.body]).toEqual([200, true, first.body]);
      }
    }
  });

  test("the same request at once from two tokens with one key: both run, neither is told it is in flight", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const [a, b] = [await tokenOf(t.api), await tokenOf(t.api)];
    const items = Array.from({ length: 100 }, (_, i) => ({ content: `item ${i}`, metadata: { i } }));
    for (let round = 0; round < 3; round++) {
      const idem = crypto.randomUUID();
      const answers = await Promise.all([a, b].map((who) => keyed(who, "POST", "/v1/memories/batch", { items }, idem)));
      for (const res of answers) expect([res.status, replayed(res), res.body.data?.created]).toEqual([200, false, 100]);
    }
    expect((await t.api.get("/v1/memories?limit=1")).body.meta.total).toBe(600);
  });

  test("GraphQL: another token's same mutation with the key runs its own; the same token replays", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const [a, b] = [await tokenOf(t.api), await tokenOf(t.api)];
    const mutation = `mutation { createMemory(input: { content: "one" }) { id } }`;
    const idem = { "Idempotency-Key": crypto.randomUUID() };
    const byA = await gqlClient(stack.baseUrl, a).raw(mutation, undefined, idem);
    const byB = await gqlClient(stack.baseUrl, b).raw(mutation, undefined, idem);
    const againA = await gqlClient(stack.baseUrl, a).raw(mutation, undefined, idem);
    expect([byA.errors, byB.errors, againA.errors]).toEqual([undefined, undefined, undefined]);
    expect(byB.headers.get("idempotent-replayed")).toBeNull();
    expect(byB.data.createMemory.id).not.toBe(byA.data.createMemory.id);
    expect(againA.headers.get("idempotent-replayed")).toBe("true");
    expect(againA.data.createMemory.id).toBe(byA.data.createMemory.id);
    // A different mutation with one key from each token is no "key used for another request" either.
    const byA2 = await gqlClient(stack.baseUrl, a).raw(
      `mutation { createMemory(input: { content: "three" }) { id } }`,
      undefined,
      { "Idempotency-Key": `${idem["Idempotency-Key"]}-x` },
    );
    expect(byA2.errors).toBeUndefined();
    const crossed = await gqlClient(stack.baseUrl, b).raw(
      `mutation { createMemory(input: { content: "four" }) { id } }`,
      undefined,
      { "Idempotency-Key": `${idem["Idempotency-Key"]}-x` },
    );
    expect(crossed.errors).toBeUndefined();
    expect(crossed.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("a token carries its key's plan", () => {
  /** A free-plan key whose tenant stores 10,000 memories already (its plan's limit), and a token it minted. */
  async function freeKeyAtQuota() {
    const tenant = `t${crypto.randomUUID().slice(0, 8)}`;
    const root = apiClient(stack.baseUrl, stack.adminKey);
    const minted = await root.post("/v1/keys", { name: "free", tenant_id: tenant, plan: "free", scopes: ["*"] });
    expect(minted.status).toBe(200);
    const key = apiClient(stack.baseUrl, minted.body.data.key);
    expect((await key.post("/v1/memories", { content: "the first" })).status).toBe(200);
    // Stored as 10,000 memories would leave it: the counter the quota reads, not 10,000 real writes.
    await redis.hset(keyspace({ tenant, env: "live" }).storage, "memories", 10_000);
    const token = await tokenOf(key);
    return { key, token };
  }

  test("REST create and batch, GraphQL and MCP: the token is refused like its key (403 QUOTA_EXCEEDED)", async () => {
    const { key, token } = await freeKeyAtQuota();
    const details = { quota: "memories", limit: 10_000, used: 10_000 };
    for (const api of [key, apiClient(stack.baseUrl, token)]) {
      const one = await api.post("/v1/memories", { content: "one more" });
      expectEnvelopeError(one, 403, "QUOTA_EXCEEDED");
      expect(one.body.error.details).toEqual(details);
      const batch = await api.post("/v1/memories/batch", { items: [{ content: "batch" }] });
      expect(batch.status).toBe(200);
      expect([batch.body.data.created, batch.body.data.items[0].error?.code]).toEqual([0, "QUOTA_EXCEEDED"]);
    }
    const gql = await gqlClient(stack.baseUrl, token).raw(`mutation { createMemory(input: { content: "g" }) { id } }`);
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: "QUOTA_EXCEEDED", details });
    const items = await gqlClient(stack.baseUrl, token).raw(
      `mutation { createMemories(items: [{ memory: { content: "g" } }]) { created items { error { code } } } }`,
    );
    expect(items.data?.createMemories).toEqual({ created: 0, items: [{ error: { code: "QUOTA_EXCEEDED" } }] });
    const mcp = await httpClient(stack.baseUrl, token);
    try {
      const remembered = await callTool(mcp, "remember", { content: "m" });
      expect(remembered.isError).toBe(true);
      expect(JSON.stringify(remembered.content)).toContain("QUOTA_EXCEEDED");
    } finally {
      await mcp.close();
    }
    expect((await key.get("/v1/usage")).body.data.storage.memories).toBe(10_000);
  });
});
