import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { createBus, type Bus } from "../../services/kit/bus";
import { rotateTokenSecret, tokenSecrets } from "../../services/contract/tokens";
import { readToken, signToken, TOKEN_PREFIX } from "../../services/contract/token-format";

/**
 * Browser tokens over REST and GraphQL: minting by the minting rule, the format, tampering, expiry, death
 * with the minting key (revoked or rotated) on two gateway replicas within 1 s, the token's own rate limit,
 * usage under the minting key, and the signing secret's rotation.
 */
let stack: Stack;
let gateways: string[];
let nc: NatsConnection;
let bus: Bus;

beforeAll(async () => {
  stack = await testStack();
  gateways = [stack.baseUrl, (await stack.addGateway()).baseUrl];
  nc = await connect({ servers: stack.natsUrl });
  bus = createBus(nc, { timeoutMs: 5000 });
}, 90_000);

afterAll(async () => {
  await nc?.close();
});

const mint = async (api: ApiClient, body: Record<string, unknown> = {}) => {
  const res = await api.post("/v1/tokens", body);
  if (res.status !== 200) throw new Error(`could not mint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
};

/** Polls `path` with `credential` on every gateway until it answers `status`; the longest wait (ms). */
async function untilStatus(credential: string, path: string, status: number, ms = 3000): Promise<number> {
  const started = Date.now();
  const waits = await Promise.all(
    gateways.map(async (g) => {
      const api = apiClient(g, credential);
      while (Date.now() - started < ms) {
        if ((await api.get(path)).status === status) return Date.now() - started;
        await Bun.sleep(20);
      }
      return Infinity;
    }),
  );
  return Math.max(...waits);
}

describe("minting", () => {
  test("a key with tokens:create mints a token that reads, within the key's scopes only", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["memories:read", "tokens:create"] });
    const before = Date.now();
    const res = await t.api.post("/v1/tokens", {});
    expect(res.status).toBe(200);
    const { token, expires_at, scopes, restrict } = res.body.data;
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(scopes).toEqual(["memories:read"]); // the default reading scopes the key holds
    expect(restrict).toBeNull();
    const ttl = Date.parse(expires_at) - before;
    expect(ttl).toBeGreaterThan(898_000);
    expect(ttl).toBeLessThanOrEqual(901_000);
    const api = apiClient(stack.baseUrl, token);
    expect((await api.get("/v1/memories")).status).toBe(200);
    expect((await api.post("/v1/memories", { content: "no" })).status).toBe(403);
    expect((await api.get("/v1/keys")).status).toBe(403);
    expect((await api.post("/v1/tokens", {})).status).toBe(403); // a token never mints
  });

  test("scopes beyond the key, admin and tokens:create: 403; a key without the scope mints none", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["memories:read", "tokens:create"] });
    const beyond = await t.api.post("/v1/tokens", { scopes: ["memories:write"] });
    expect(beyond.status).toBe(403);
    expect(beyond.body.error.details.refused).toEqual({ scopes: ["memories:write"] });
    const all = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
    for (const scope of ["admin", "tokens:create", "*"]) {
      const res = await all.api.post("/v1/tokens", { scopes: ["memories:read", scope] });
      expect(res.status).toBe(403);
      expect(res.body.error.details.refused).toEqual({ scopes: [scope] });
    }
    const none = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["memories:read", "memories:write"] });
    expect((await none.api.post("/v1/tokens", {})).status).toBe(403);
  });

  test("ttl_seconds outside 60–86400, an unknown field or a bad origin is a 400", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    for (const body of [{ ttl_seconds: 59 }, { ttl_seconds: 86_401 }, { nope: 1 }, { origins: ["app.example.com"] }]) {
      const res = await t.api.post("/v1/tokens", body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });

  test("a rate_limit above the key's is refused; a token never outlives its key", async () => {
    const expiresAt = new Date(Date.now() + 120_000).toISOString();
    const root = apiClient(stack.baseUrl, stack.adminKey);
    const key = await root.post("/v1/keys", {
      name: "short",
      tenant_id: `t${crypto.randomUUID().slice(0, 8)}`,
      scopes: ["*"],
      rate_limit: 100,
      expires_at: expiresAt,
    });
    const api = apiClient(stack.baseUrl, key.body.data.key);
    expect((await api.post("/v1/tokens", { rate_limit: 101 })).status).toBe(403);
    const res = await api.post("/v1/tokens", { ttl_seconds: 3600, rate_limit: 100 });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.data.expires_at)).toBeLessThanOrEqual(Date.parse(expiresAt));
  });

  test("GraphQL createToken mints the same token; the token queries GraphQL", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    await t.api.post("/v1/memories", { content: "seen by the token", metadata: { user_id: "u_1" } });
    const gql = async (credential: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await fetch(`${stack.baseUrl}/graphql`, {
        method: "POST",
        headers: { Authorization: `Bearer ${credential}`, "Content-Type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as { data?: any; errors?: any[] };
    };
    const minted = await gql(
      t.key,
      `mutation($input: CreateTokenInput) { createToken(input: $input) {
        token expiresAt scopes restrict { metadata rootMemoryId tagIds } } }`,
      { input: { scopes: ["MEMORIES_READ"], ttlSeconds: 120, restrict: { metadata: { user_id: "u_1" } } } },
    );
    expect(minted.errors).toBeUndefined();
    const out = minted.data.createToken;
    expect(out.scopes).toEqual(["MEMORIES_READ"]);
    expect(out.restrict).toEqual({ metadata: { user_id: "u_1" }, rootMemoryId: null, tagIds: null });
    const read = await gql(out.token, `{ memories { items { content } } }`);
    expect(read.errors).toBeUndefined();
    expect(read.data.memories.items.map((m: { content: string }) => m.content)).toEqual(["seen by the token"]);
  });
});

describe("verification", () => {
  test("a change to any part of a token gives 401", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mint(t.api);
    expect((await apiClient(stack.baseUrl, token).get("/v1/memories")).status).toBe(200);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const dot = token.indexOf(".");
    const tampered = [
      flip(token, TOKEN_PREFIX.length + 5), // claims
      flip(token, dot + 3), // signature
      flip(token, token.length - 1), // the signature's last character
      token.slice(0, -1),
      token.replace(".", ""),
      `${token}.x`,
      `svc_tok_${"A".repeat(40)}`,
    ];
    for (const bad of tampered) {
      const res = await apiClient(stack.baseUrl, bad).get("/v1/memories");
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("UNAUTHORIZED");
    }
  });

  test("claims signed with a wrong secret or past expiry give 401; the same claims signed right verify", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mint(t.api);
    const { secrets } = await bus.call(tokenSecrets, {}, { requestId: "test" });
    const secretOf = (id: string) => secrets.find((s) => s.id === id)?.secret;
    const claims = readToken(token, secretOf)!;
    expect(claims).not.toBeNull();
    const resigned = signToken({ ...claims, exp: Math.floor(Date.now() / 1000) + 60 }, secretOf(claims.sid)!);
    expect((await apiClient(stack.baseUrl, resigned).get("/v1/memories")).status).toBe(200);
    const expired = signToken({ ...claims, exp: Math.floor(Date.now() / 1000) - 1 }, secretOf(claims.sid)!);
    expect((await apiClient(stack.baseUrl, expired).get("/v1/memories")).status).toBe(401);
    const forged = signToken({ ...claims, scopes: ["*"] }, Buffer.alloc(32, 7).toString("base64url"));
    expect((await apiClient(stack.baseUrl, forged).get("/v1/memories")).status).toBe(401);
  });

  test("a token dies on every gateway within 1 s when its minting key is revoked", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mint(t.api);
    expect(await untilStatus(token, "/v1/memories", 200)).toBeLessThan(1000); // verified, cached on both
    expect((await apiClient(stack.baseUrl, stack.adminKey).delete(`/v1/keys/${t.keyId}`)).status).toBe(200);
    expect(await untilStatus(token, "/v1/memories", 401)).toBeLessThan(1000);
  });

  test("a token dies within 1 s when its minting key is rotated, even while the old secret has a grace", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mint(t.api);
    expect(await untilStatus(token, "/v1/memories", 200)).toBeLessThan(1000);
    const rotated = await t.api.post(`/v1/keys/${t.keyId}/rotate`, { grace_seconds: 600 });
    expect(rotated.status).toBe(200);
    expect(await untilStatus(token, "/v1/memories", 401)).toBeLessThan(1000);
    expect((await t.api.get("/v1/memories")).status).toBe(200); // the old secret still works
    const fresh = await mint(apiClient(stack.baseUrl, rotated.body.data.key));
    expect((await apiClient(stack.baseUrl, fresh).get("/v1/memories")).status).toBe(200);
  });

  test("after a signing-secret rotation, old tokens still verify and new ones verify on every gateway", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const old = await mint(t.api);
    await bus.call(rotateTokenSecret, {}, { requestId: "test" });
    const fresh = await mint(t.api);
    expect(fresh.split(".")[0]).not.toBe(old.split(".")[0]);
    expect(await untilStatus(fresh, "/v1/memories", 200)).toBeLessThan(1000);
    expect(await untilStatus(old, "/v1/memories", 200)).toBeLessThan(1000);
  });
});

describe("limits and usage", () => {
  test("a token's own rate limit is exact under 50 concurrent requests, and leaves the key's budget", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mint(t.api, { rate_limit: 7 });
    const api = apiClient(stack.baseUrl, token);
    const statuses = await Promise.all(Array.from({ length: 50 }, () => api.get("/v1/memories")));
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(7);
    expect(statuses.filter((r) => r.status === 429)).toHaveLength(43);
    const refused = statuses.find((r) => r.status === 429)!;
    expect(refused.headers.get("x-ratelimit-limit")).toBe("7");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await t.api.get("/v1/memories")).status).toBe(200);
    // Another token of the same key has its own window.
    expect((await apiClient(stack.baseUrl, await mint(t.api, { rate_limit: 7 })).get("/v1/memories")).status).toBe(200);
  });

  test("usage is recorded under the minting key, the token's requests told apart", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mint(t.api);
    for (let i = 0; i < 3; i++) await apiClient(stack.baseUrl, token).get("/v1/memories");
    let report: any;
    const deadline = Date.now() + 5000;
    do {
      await Bun.sleep(200);
      report = (await t.api.get("/v1/usage")).body.data;
    } while (!report.by_endpoint.some((e: any) => e.endpoint === "GET /v1/memories (token)") && Date.now() < deadline);
    expect(report.by_endpoint.find((e: any) => e.endpoint === "GET /v1/memories (token)")?.requests).toBe(3);
    expect(report.by_key.map((k: any) => k.key_id)).toEqual([t.keyId]);
  });
});
