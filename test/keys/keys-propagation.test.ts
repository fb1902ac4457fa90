import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";

/**
 * A key's change or new secret holds on every gateway replica within 1 s, although each replica caches
 * verified keys for 30 s: two gateways, each with the key cached before the change.
 */
let stack: Stack;
let root: ApiClient;
let gateways: string[];

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
  gateways = [stack.baseUrl, (await stack.addGateway()).baseUrl];
}, 90_000);

/** A key with every scope in a fresh tenant, already verified (cached) on both gateways. */
async function cachedKey() {
  const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
  for (const g of gateways)
    expect((await apiClient(g, t.key).post("/v1/memories", { content: "cached" })).status).toBe(200);
  return t;
}

type Request = (api: ApiClient) => Promise<{ status: number }>;

/** Polls `request` with `key` on every gateway until it answers `status`: when each did (Infinity: not in `ms`). */
async function whenStatus(request: Request, key: string, status: number, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  return Promise.all(
    gateways.map(async (g) => {
      const api = apiClient(g, key);
      while (Date.now() < deadline) {
        const before = Date.now();
        if ((await request(api)).status === status) return before;
        await Bun.sleep(20);
      }
      return Infinity;
    }),
  );
}

/** How long after `since` each gateway took to answer `status` (Infinity: not within 3 s). */
const within = async (request: Request, key: string, status: number, since = Date.now()) =>
  (await whenStatus(request, key, status, 3000)).map((at) => at - since);

const write = (api: ApiClient) => api.post("/v1/memories", { content: "write" });
const read = (api: ApiClient) => api.get("/v1/memories?limit=1");

describe("PATCH reaches every replica within 1 s", () => {
  test("a scope removed is refused on both gateways; the scopes kept still answer", async () => {
    const t = await cachedKey();
    const res = await root.patch(`/v1/keys/${t.keyId}`, { scopes: ["memories:read"] });
    expect(res.status).toBe(200);
    for (const ms of await within(write, t.key, 403)) expect(ms).toBeLessThan(1000);
    for (const g of gateways) {
      const refused = await write(apiClient(g, t.key));
      expect(refused.body.error).toEqual({ code: "FORBIDDEN", message: "Missing required scope: memories:write" });
      expect((await read(apiClient(g, t.key))).status).toBe(200);
    }
  });

  test("a new rate limit applies on both gateways", async () => {
    const t = await cachedKey();
    expect((await root.patch(`/v1/keys/${t.keyId}`, { rate_limit: 4321 })).status).toBe(200);
    const started = Date.now();
    for (const g of gateways) {
      let limit: string | null = null;
      while (limit !== "4321" && Date.now() - started < 3000)
        limit = (await read(apiClient(g, t.key))).headers.get("x-ratelimit-limit");
      expect(limit).toBe("4321");
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("an expiry set ends the key on both gateways then; removing it again revives it", async () => {
    const t = await cachedKey();
    const expiresAt = Date.now() + 1500;
    const res = await root.patch(`/v1/keys/${t.keyId}`, { expires_at: new Date(expiresAt).toISOString() });
    expect(res.status).toBe(200);
    for (const g of gateways) expect((await read(apiClient(g, t.key))).status).toBe(200);
    for (const at of await whenStatus(read, t.key, 401, 4000)) {
      expect(at).toBeGreaterThanOrEqual(expiresAt - 50); // requests sent before it still answered
      expect(at - expiresAt).toBeLessThan(1000);
    }
    expect((await root.patch(`/v1/keys/${t.keyId}`, { expires_at: null })).status).toBe(200);
    for (const ms of await within(read, t.key, 200)) expect(ms).toBeLessThan(1000);
  });
});

describe("rotation reaches every replica", () => {
  test("the old secret is refused at once on both gateways; the new one answers on both", async () => {
    const t = await cachedKey();
    const res = await root.post(`/v1/keys/${t.keyId}/rotate`, {});
    expect(res.status).toBe(200);
    for (const ms of await within(read, t.key, 401)) expect(ms).toBeLessThan(1000);
    for (const g of gateways) expect((await read(apiClient(g, res.body.data.key))).status).toBe(200);
  });

  test("grace_seconds=2: both secrets work for 2 s on both gateways, then the old one is refused on both", async () => {
    const t = await cachedKey();
    const sent = Date.now();
    const res = await root.post(`/v1/keys/${t.keyId}/rotate`, { grace_seconds: 2 });
    const rotatedAt = Date.now();
    expect(res.status).toBe(200);
    const ends = Date.parse(res.body.data.message.match(/works until (\S+)\.$/)[1]);
    expect(ends - sent).toBeGreaterThanOrEqual(2000);
    expect(ends - rotatedAt).toBeLessThanOrEqual(2000);
    const fresh = res.body.data.key;
    while (Date.now() - rotatedAt < 1500) {
      for (const g of gateways) {
        expect((await read(apiClient(g, t.key))).status).toBe(200);
        expect((await read(apiClient(g, fresh))).status).toBe(200);
      }
      await Bun.sleep(100);
    }
    for (const at of await whenStatus(read, t.key, 401, 4000)) {
      expect(at).toBeGreaterThanOrEqual(ends - 50);
      expect(at - ends).toBeLessThan(1000);
    }
    for (const g of gateways) expect((await read(apiClient(g, fresh))).status).toBe(200);
  });
});
