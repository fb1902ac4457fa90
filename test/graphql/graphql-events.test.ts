import { afterEach, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { gqlTenant } from "./graphql-helpers";

/** Issue 5: `memoryEvents` over SSE (yoga's built-in transport), fed by writes made over REST. */
interface Sse {
  /** The next `next` event's payload matching `pick`, or a failure after `ms`. */
  next(pick?: (payload: any) => boolean, ms?: number): Promise<any>;
  status: number;
  headers: Headers;
  close(): void;
}

const open: Sse[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

async function subscribe(key: string | undefined, query: string, variables?: Record<string, unknown>): Promise<Sse> {
  const { baseUrl } = await testStack();
  const ctrl = new AbortController();
  const res = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    signal: ctrl.signal,
    headers: {
      "Content-Type": "application/json",
      Accept: "text/event-stream",
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const queue: any[] = [];
  let buffer = "";
  const pump = async () => {
    const { value, done } = await reader.read();
    if (done) throw new Error("stream ended");
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block.split("\n").find((l) => l.startsWith("data: "));
      if (block.includes("event: next") && data) queue.push(JSON.parse(data.slice(6)));
    }
  };
  const sse: Sse = {
    status: res.status,
    headers: res.headers,
    async next(pick = () => true, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const i = queue.findIndex(pick);
        if (i >= 0) return queue.splice(i, 1)[0];
        const left = deadline - Date.now();
        if (left <= 0) throw new Error("no matching event in time");
        await Promise.race([pump(), Bun.sleep(left)]);
      }
    },
    close: () => ctrl.abort(),
  };
  if (res.headers.get("content-type")?.includes("text/event-stream")) open.push(sse);
  await Bun.sleep(100); // the gateway subscribes to NATS when the stream starts
  return sse;
}

const EVENTS =
  "subscription($f: MemoryEventFilter) { memoryEvents(filter: $f) { type memoryId version changed at " +
  "memory { id content tier tags { name description } parent { id } } } }";

describe("memoryEvents", () => {
  test("streams created, updated, tags-changed and deleted events of writes made over REST", async () => {
    const t = await gqlTenant();
    const sse = await subscribe(t.key, EVENTS);
    expect(sse.status).toBe(200);
    expect(sse.headers.get("x-request-id")).toEqual(expect.any(String));
    expect(sse.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);

    const m = (await t.api.post("/v1/memories", { content: "hello" })).body.data;
    const created = await sse.next();
    expect(created.data.memoryEvents).toEqual({
      type: "CREATED",
      memoryId: m.id,
      version: expect.any(Number),
      changed: [],
      at: expect.any(String),
      memory: { id: m.id, content: "hello", tier: "MEDIUM", tags: [], parent: null },
    });

    await t.api.patch(`/v1/memories/${m.id}`, { content: "hello again", tier: "long" });
    const updated = (await sse.next()).data.memoryEvents;
    expect(updated).toMatchObject({
      type: "UPDATED",
      memoryId: m.id,
      memory: { content: "hello again", tier: "LONG" },
    });
    expect(updated.changed.sort()).toEqual(["content", "tier"]);
    expect(updated.version).toBeGreaterThan(created.data.memoryEvents.version);

    const tag = (await t.api.post("/v1/tags", { name: "greeting", description: "hi" })).body.data;
    await t.api.post(`/v1/memories/${m.id}/tags`, { tag_ids: [tag.id] });
    expect((await sse.next()).data.memoryEvents).toMatchObject({
      type: "TAGS_CHANGED",
      memoryId: m.id,
      memory: { tags: [{ name: "greeting", description: "hi" }] },
    });

    await t.api.delete(`/v1/memories/${m.id}`);
    expect((await sse.next()).data.memoryEvents).toMatchObject({ type: "DELETED", memoryId: m.id, memory: null });
  });

  test("only the caller's tenant and environment", async () => {
    const t = await gqlTenant();
    const sameTenantTestEnv = await gqlTenant({ tenant: t.tenant, environment: "test" });
    const other = await gqlTenant();
    const sse = await subscribe(t.key, EVENTS);
    await other.api.post("/v1/memories", { content: "other tenant" });
    await sameTenantTestEnv.api.post("/v1/memories", { content: "other environment" });
    const mine = (await t.api.post("/v1/memories", { content: "mine" })).body.data;
    const first = (await sse.next()).data.memoryEvents;
    expect(first).toMatchObject({ memoryId: mine.id, memory: { content: "mine" } });
  });

  test("filter by type and memory ids", async () => {
    const t = await gqlTenant();
    const a = (await t.api.post("/v1/memories", { content: "a" })).body.data;
    const b = (await t.api.post("/v1/memories", { content: "b" })).body.data;
    const sse = await subscribe(t.key, EVENTS, { f: { types: ["UPDATED", "DELETED"], memoryIds: [b.id] } });
    await t.api.patch(`/v1/memories/${a.id}`, { content: "a2" });
    await t.api.post("/v1/memories", { content: "c" });
    await t.api.patch(`/v1/memories/${b.id}`, { content: "b2" });
    expect((await sse.next()).data.memoryEvents).toMatchObject({
      type: "UPDATED",
      memoryId: b.id,
      changed: ["content"],
    });
    await t.api.delete(`/v1/memories/${a.id}`);
    await t.api.delete(`/v1/memories/${b.id}`);
    expect((await sse.next()).data.memoryEvents).toMatchObject({ type: "DELETED", memoryId: b.id });
  });

  test("authorised like queries: memories:read is needed, and a key is", async () => {
    const t = await gqlTenant({ scopes: ["search:read"] });
    const res = await subscribe(t.key, EVENTS);
    const payload = await res.next();
    expect(payload.errors[0].message).toBe("Missing required scope: memories:read");
    expect(payload.errors[0].extensions).toEqual({ code: "FORBIDDEN", request_id: res.headers.get("x-request-id") });
    const anonymous = await subscribe(undefined, EVENTS);
    expect(anonymous.status).toBe(401);
  });

  test("a long-lived subscription counts once against the rate limit", async () => {
    const t = await gqlTenant({ rate_limit: 5 });
    const sse = await subscribe(t.key, EVENTS);
    expect(sse.headers.get("x-ratelimit-remaining")).toBe("4");
    const m = (await t.api.post("/v1/memories", { content: "x" })).body.data;
    await t.api.patch(`/v1/memories/${m.id}`, { content: "y" });
    await sse.next((p) => p.data.memoryEvents.type === "UPDATED");
    const after = await t.gql.raw(`{ memories { total } }`);
    expect(after.headers.get("x-ratelimit-remaining")).toBe("1"); // the stream, two REST writes, this query
  });
});
