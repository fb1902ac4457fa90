import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";

/**
 * A revoked or expired key's open `memoryEvents` streams end within 1 s on every gateway replica,
 * and deliver nothing after: two gateways, real SSE clients, writes made over REST. So do the streams
 * of a key changed so that it may no longer read them, and those of a secret a rotation replaced.
 */
let stack: Stack;
let root: ApiClient;
let gateways: string[];
const open: Stream[] = [];

beforeAll(async () => {
  stack = await testStack();
  root = apiClient(stack.baseUrl, stack.adminKey);
  gateways = [stack.baseUrl, (await stack.addGateway()).baseUrl];
}, 90_000);

afterAll(() => {
  for (const s of open.splice(0)) s.close();
});

interface Stream {
  /** `next` payloads' memory contents, with the time each arrived. */
  events: { content: string; at: number }[];
  /** When the server ended the stream (null while open). */
  endedAt: () => number | null;
  /** Resolves when a `next` event with this content has arrived. */
  waitFor(content: string, ms?: number): Promise<void>;
  close(): void;
}

const LIVE = `subscription { memoryEvents { type memory { content } } }`;

/** A real SSE client of GraphQL-over-SSE (distinct connections), as the README shows it. */
async function subscribe(baseUrl: string, key: string): Promise<Stream> {
  const ctrl = new AbortController();
  const res = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    signal: ctrl.signal,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ query: LIVE }),
  });
  expect(res.status).toBe(200);
  const events: Stream["events"] = [];
  let endedAt: number | null = null;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body!) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split("\n").find((l) => l.startsWith("data: "));
          if (block.includes("event: next") && data) {
            const content = JSON.parse(data.slice(6)).data?.memoryEvents?.memory?.content;
            events.push({ content, at: Date.now() });
          }
        }
      }
    } catch {
      /* aborted by close() */
    }
    endedAt ??= Date.now();
  })();
  const stream: Stream = {
    events,
    endedAt: () => endedAt,
    async waitFor(content, ms = 5000) {
      const deadline = Date.now() + ms;
      while (!events.some((e) => e.content === content)) {
        if (Date.now() > deadline) throw new Error(`no event "${content}" in ${ms} ms`);
        await Bun.sleep(10);
      }
    },
    close: () => ctrl.abort(),
  };
  open.push(stream);
  return stream;
}

/** Opens a stream of `key` on every gateway, and proves each delivers by a first write. */
async function streamsOnEveryGateway(key: string, writer: ApiClient): Promise<Stream[]> {
  const streams = await Promise.all(gateways.map((g) => subscribe(g, key)));
  const first = `before ${crypto.randomUUID()}`;
  // The gateway subscribes to NATS as the stream starts: write until the first event arrives.
  for (let i = 0; i < 50 && !streams.every((s) => s.events.length > 0); i++) {
    await writer.post("/v1/memories", { content: first });
    await Bun.sleep(50);
  }
  await Promise.all(streams.map((s) => s.waitFor(first)));
  return streams;
}

/** Waits until every stream has ended or `ms` passed. */
async function ended(streams: Stream[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (streams.some((s) => s.endedAt() === null) && Date.now() < deadline) await Bun.sleep(10);
}

describe("a key's open streams end with the key", () => {
  test("revocation ends the key's streams within 1 s on both gateways; later writes reach other keys", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
    const other = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], tenant: t.tenant });
    const revoked = await streamsOnEveryGateway(t.key, other.api);
    const kept = await streamsOnEveryGateway(other.key, other.api);

    const res = await root.delete(`/v1/keys/${t.keyId}`);
    expect(res.status).toBe(200);
    const revokedAt = Date.now();
    const after = ["after 1", "after 2"];
    for (const content of after) expect((await other.api.post("/v1/memories", { content })).status).toBe(200);

    await ended(revoked, 2000);
    for (const s of revoked) {
      expect(s.endedAt()).not.toBeNull();
      expect(s.endedAt()! - revokedAt).toBeLessThan(1000);
      expect(s.events.filter((e) => after.includes(e.content))).toEqual([]);
      expect(s.events.filter((e) => e.at > revokedAt)).toEqual([]);
    }
    // The revocation is aimed: the same tenant's other key still streams on both replicas.
    for (const s of kept) for (const content of after) await s.waitFor(content);
    expect(kept.map((s) => s.endedAt())).toEqual([null, null]);
  });

  test("a stream opened with a revoked key is refused on both gateways", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
    await Promise.all(gateways.map((g) => apiClient(g, t.key).get("/v1/tags"))); // cached on both
    expect((await root.delete(`/v1/keys/${t.keyId}`)).status).toBe(200);
    for (const g of gateways) {
      const res = await fetch(`${g}/graphql`, {
        method: "POST",
        headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({ query: LIVE }),
      });
      expect(res.status).toBe(401);
      await res.body?.cancel();
    }
  });

  test("expiry ends the key's streams within 1 s of expires_at on both gateways", async () => {
    const tenant = `x${crypto.randomUUID().slice(0, 8)}`;
    const expiresAt = Date.now() + 2500;
    const body = { name: "short", tenant_id: tenant, scopes: ["*"], expires_at: new Date(expiresAt).toISOString() };
    const created = await root.post("/v1/keys", body);
    expect(created.status).toBe(200);
    const writer = (await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], tenant })).api;
    const streams = await streamsOnEveryGateway(created.body.data.key, writer);
    expect(Date.now()).toBeLessThan(expiresAt); // the streams were open before the key expired

    await ended(streams, expiresAt - Date.now() + 2000);
    for (const s of streams) {
      expect(s.endedAt()).not.toBeNull();
      expect(s.endedAt()!).toBeGreaterThanOrEqual(expiresAt - 50);
      expect(s.endedAt()! - expiresAt).toBeLessThan(1000);
    }
    await writer.post("/v1/memories", { content: "after expiry" });
    await Bun.sleep(300);
    for (const s of streams) expect(s.events.filter((e) => e.content === "after expiry")).toEqual([]);
  });

  test("a patch removing memories:read ends the streams within 1 s on both gateways; a rename does not", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
    const writer = (await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], tenant: t.tenant })).api;
    const streams = await streamsOnEveryGateway(t.key, writer);
    expect((await root.patch(`/v1/keys/${t.keyId}`, { name: "renamed" })).status).toBe(200);
    await writer.post("/v1/memories", { content: "after the rename" });
    for (const s of streams) await s.waitFor("after the rename");
    expect(streams.map((s) => s.endedAt())).toEqual([null, null]);

    expect((await root.patch(`/v1/keys/${t.keyId}`, { scopes: ["memories:write"] })).status).toBe(200);
    const patchedAt = Date.now();
    await ended(streams, 2000);
    for (const s of streams) {
      expect(s.endedAt()).not.toBeNull();
      expect(s.endedAt()! - patchedAt).toBeLessThan(1000);
    }
  });

  test("rotation with grace: old-secret streams end with the grace on both gateways; new ones stay", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
    const writer = (await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"], tenant: t.tenant })).api;
    const old = await streamsOnEveryGateway(t.key, writer);
    const res = await root.post(`/v1/keys/${t.keyId}/rotate`, { grace_seconds: 2 });
    expect(res.status).toBe(200);
    const ends = Date.parse(res.body.data.message.match(/works until (\S+)\.$/)[1]);
    const fresh = await streamsOnEveryGateway(res.body.data.key, writer);
    expect(old.map((s) => s.endedAt())).toEqual([null, null]); // still within the grace

    await ended(old, ends - Date.now() + 2000);
    for (const s of old) {
      expect(s.endedAt()).not.toBeNull();
      expect(s.endedAt()!).toBeGreaterThanOrEqual(ends - 50);
      expect(s.endedAt()! - ends).toBeLessThan(1000);
    }
    await writer.post("/v1/memories", { content: "after the grace" });
    for (const s of fresh) await s.waitFor("after the grace");
    expect(fresh.map((s) => s.endedAt())).toEqual([null, null]);
  });
});
