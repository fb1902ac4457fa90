import { beforeAll, describe, expect, test } from "bun:test";
import { connect } from "nats";
import { memoryEventsOf } from "../../services/contract/events";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { gqlClient } from "../graphql/graphql-helpers";
import { testStack } from "../harness";
import { searchIds, word } from "../search/search-helpers";
import { createMemory, listAll, ok, tenant, UNKNOWN_ID } from "./memory-helpers";

/** POST /v1/memories/batch (and GraphQL createMemories): many creates in one call, each item on its own. */
let api: ApiClient;
let key: string;

beforeAll(async () => {
  ({ api, key } = await tenant());
});

const batch = (items: unknown[], client = api) => client.post("/v1/memories/batch", { items });

describe("POST /v1/memories/batch", () => {
  test("creates every item in order; each answer has the shape of a single create", async () => {
    const items = [
      { content: "first", tier: "long", metadata: { n: 1 } },
      { content: "second", external_id: `ext-${word()}` },
      { content: "third", occurred_at: "2024-05-01T10:00:00.000Z" },
    ];
    const res = await batch(items);
    expect(res.status).toBe(200);
    const out = res.body.data;
    expect([out.created, out.failed, out.items.length]).toEqual([3, 0, 3]);
    for (const [i, r] of out.items.entries()) {
      expect(Object.keys(r)).toEqual(["data"]);
      expect(r.data.content).toBe(items[i]!.content);
      expect(await ok(api.get(`/v1/memories/${r.data.id}`))).toEqual(r.data);
    }
    expect(out.items[0].data).toMatchObject({ tier: "long", metadata: { n: 1 }, content_type: "text" });
    expect(out.items[2].data.occurred_at).toBe("2024-05-01T10:00:00.000Z");
    const created = out.items.map((r: any) => Date.parse(r.data.created_at));
    expect(created[0]).toBeLessThan(created[1]);
    expect(created[1]).toBeLessThan(created[2]);
  });

  test("one bad item fails alone, with the error a single create gives; the others are created", async () => {
    const taken = `ext-${word()}`;
    await createMemory(api, { external_id: taken });
    const res = await batch([
      { content: "good 1" },
      { tier: "short" },
      { content: "good 2" },
      { content: "x", tier: "huge" },
      { content: "x", colour: "red" },
      { content: "x", parent_memory_id: UNKNOWN_ID },
      { content: "x", external_id: taken },
      { content: "x", expires_at: "2030-01-01T00:00:00.000Z", ttl_seconds: 60 },
      7,
      { content: "good 3" },
    ]);
    expect(res.status).toBe(200);
    const out = res.body.data;
    expect([out.created, out.failed]).toEqual([3, 7]);
    expect([0, 2, 9].map((i) => out.items[i].data.content)).toEqual(["good 1", "good 2", "good 3"]);
    const errors = out.items.map((r: any) => r.error ?? null);
    expect(errors[1]).toEqual({
      code: "VALIDATION_ERROR",
      message: "content is required",
      details: { field: "content", constraint: "required" },
    });
    expect(errors[3]).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "tier", constraint: "enum" } });
    expect(errors[4]).toMatchObject({ details: { field: "colour", constraint: "unknown_field" } });
    expect(errors[5]).toEqual({
      code: "VALIDATION_ERROR",
      message: "parent_memory_id must name an existing memory",
      details: { field: "parent_memory_id", constraint: "exists" },
    });
    expect(errors[6]).toMatchObject({ details: { field: "external_id", constraint: "unique" } });
    expect(errors[7]).toMatchObject({ details: { field: "ttl_seconds", constraint: "exclusive" } });
    expect(errors[8]).toMatchObject({ code: "VALIDATION_ERROR", details: { constraint: "type" } });
    // The same refusals as single creates.
    const single = await api.post("/v1/memories", { content: "x", tier: "huge" });
    expect(errors[3]).toEqual(single.body.error);
  });

  test("an external_id taken by an earlier item of the same call is refused for the later one", async () => {
    const ext = `ext-${word()}`;
    const out = await ok(
      batch([
        { content: "a", external_id: ext },
        { content: "b", external_id: ext },
      ]),
    );
    expect(out.items[0].data.external_id).toBe(ext);
    expect(out.items[1].error.details).toEqual({ field: "external_id", constraint: "unique" });
  });

  test("parent_ref makes an earlier item the parent: a whole thread in one call, in the call's order", async () => {
    const items = [
      { content: "the conversation", content_type: "conversation" },
      ...Array.from({ length: 6 }, (_, i) => ({ content: `turn ${i}`, parent_ref: 0 })),
      { content: "a reply to turn 2", parent_ref: 3 },
    ];
    const out = await ok(batch(items));
    expect(out.failed).toBe(0);
    const [root, ...rest] = out.items.map((r: any) => r.data);
    for (const m of rest.slice(0, 6)) expect(m.parent_memory_id).toBe(root.id);
    expect(rest[6].parent_memory_id).toBe(rest[2].id);
    const thread = await listAll(api, `/v1/memories?parent_memory_id=${root.id}&sort=occurred_at&order=asc`);
    expect(thread.map((m) => m.content)).toEqual(["turn 0", "turn 1", "turn 2", "turn 3", "turn 4", "turn 5"]);
  });

  test("parent_ref must name an earlier item that was created, and not come with parent_memory_id", async () => {
    const parent = await createMemory(api);
    const out = await ok(
      batch([
        { content: "root" },
        { content: "refers to itself", parent_ref: 1 },
        { content: "refers to a later item", parent_ref: 3 },
        { tier: "short" },
        { content: "child of the bad item", parent_ref: 3 },
        { content: "grandchild of the bad item", parent_ref: 4 },
        { content: "both", parent_ref: 0, parent_memory_id: parent.id },
        { content: "fine", parent_ref: 0 },
        { content: "x", parent_memory_id: UNKNOWN_ID },
        { content: "child of an item the store refused", parent_ref: 8 },
      ]),
    );
    const details = out.items.map((r: any) => r.error?.details ?? null);
    expect(details).toEqual([
      null,
      { field: "parent_ref", constraint: "range" },
      { field: "parent_ref", constraint: "range" },
      { field: "content", constraint: "required" },
      { field: "parent_ref", constraint: "exists" },
      { field: "parent_ref", constraint: "exists" },
      { field: "parent_ref", constraint: "exclusive" },
      null,
      { field: "parent_memory_id", constraint: "exists" },
      { field: "parent_ref", constraint: "exists" },
    ]);
    expect(out.items[4].error.message).toBe("parent_ref names an item of this call that was not created");
    expect(out.items[7].data.parent_memory_id).toBe(out.items[0].data.id);
  });

  test("limits: 1 to 500 items (501 is a 400 and creates nothing); items must be a list", async () => {
    const tooMany = await batch(Array.from({ length: 501 }, (_, i) => ({ content: `m${i}` })));
    expectError(tooMany, 400, "VALIDATION_ERROR", "items must have at most 500 items", {
      field: "items",
      constraint: "max_items",
      max: 500,
    });
    expectError(await batch([]), 400, "VALIDATION_ERROR", "items must have at least 1 item(s)", {
      field: "items",
      constraint: "min_items",
      min: 1,
    });
    const notList = await api.post("/v1/memories/batch", { items: { content: "x" } });
    expect([notList.status, notList.body.error.details.field]).toEqual([400, "items"]);
    const extra = await api.post("/v1/memories/batch", { items: [{ content: "x" }], atomic: true });
    expect(extra.body.error.details).toEqual({ field: "atomic", constraint: "unknown_field" });

    const { api: fresh } = await tenant();
    expect(
      await batch(
        Array.from({ length: 501 }, () => ({ content: "x" })),
        fresh,
      ),
    ).toMatchObject({ status: 400 });
    const full = await ok(
      batch(
        Array.from({ length: 500 }, (_, i) => ({ content: `m${i}` })),
        fresh,
      ),
    );
    expect([full.created, full.failed]).toEqual([500, 0]);
    expect((await fresh.get("/v1/memories?limit=1")).body.meta.total).toBe(500);
  });

  test("read-your-writes: search finds every item as soon as the call returns", async () => {
    const { api: own } = await tenant();
    const words = Array.from({ length: 40 }, () => word());
    const out = await ok(
      batch(
        words.map((w, i) => ({ content: `note ${i} about ${w} and the harbour` })),
        own,
      ),
    );
    expect(out.created).toBe(40);
    const found = await Promise.all(words.map((w) => searchIds(own, { query: w, limit: 1 })));
    expect(found).toEqual(out.items.map((r: any) => [r.data.id]));
  });

  test("the created items' memory.created events go in one message, in order; a refused item has none", async () => {
    const nc = await connect({ servers: (await testStack()).natsUrl.split(",") });
    try {
      const jsm = await nc.jetstreamManager();
      const startSeq = (await jsm.streams.info("EVENTS")).state.last_seq + 1;
      const { api: own, tenant: name } = await tenant();
      const out = await ok(batch([{ content: "a" }, { tier: "short" }, { content: "b", parent_ref: 0 }], own));
      const lastSeq = (await jsm.streams.info("EVENTS")).state.last_seq;
      const seen: [string, string | undefined, [string, number][]][] = [];
      for (let seq = startSeq; seq <= lastSeq; seq++) {
        const msg = await jsm.streams.getMessage("EVENTS", { seq }).catch(() => null);
        const events = msg ? memoryEventsOf(msg.data) : [];
        if (msg && events[0]?.tenant === name)
          seen.push([msg.subject, msg.header?.get("Nats-Msg-Id"), events.map((e) => [e.memory_id, e.memory!.version])]);
      }
      const [first, , third] = out.items.map((i: any) => i.data?.id);
      expect(seen).toEqual([
        [
          "events.memory.created",
          `${first}:1+2`,
          [
            [first, 1],
            [third, 1],
          ],
        ],
      ]);
    } finally {
      await nc.close();
    }
  });

  test("needs memories:write", async () => {
    const { api: reader } = await tenant({ scopes: ["memories:read"] });
    expectError(await batch([{ content: "x" }], reader), 403, "FORBIDDEN", "Missing required scope: memories:write");
  });

  test("a retried batch with its Idempotency-Key runs once", async () => {
    const { api: own } = await tenant();
    const items = [{ content: "a" }, { content: "b", parent_ref: 0 }];
    const first = await own.post("/v1/memories/batch", { items }, { "Idempotency-Key": "batch-1" });
    const again = await own.post("/v1/memories/batch", { items }, { "Idempotency-Key": "batch-1" });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await own.get("/v1/memories?limit=1")).body.meta.total).toBe(2);
  });
});

describe("GraphQL createMemories", () => {
  test("items with parentRef, one bad item with its error; the payload is aligned with the items", async () => {
    const gql = gqlClient((await testStack()).baseUrl, key);
    const query = `mutation($items: [CreateMemoriesItem!]!) {
      createMemories(items: $items) {
        created failed
        items { memory { id content parentMemoryId parent { id } } error { code message details } }
      }
    }`;
    const items = [
      { memory: { content: "root via graphql", contentType: "CONVERSATION" } },
      { memory: { content: "a turn" }, parentRef: 0 },
      { memory: { content: "x", parentMemoryId: UNKNOWN_ID } },
    ];
    const res = await gql.raw(query, { items });
    expect(res.errors).toBeUndefined();
    const out = res.data.createMemories;
    expect([out.created, out.failed]).toEqual([2, 1]);
    const [root, turn, bad] = out.items;
    expect(root.error).toBeNull();
    expect(turn.memory).toMatchObject({ content: "a turn", parentMemoryId: root.memory.id });
    expect(turn.memory.parent.id).toBe(root.memory.id);
    expect(bad).toEqual({
      memory: null,
      error: {
        code: "VALIDATION_ERROR",
        message: "parent_memory_id must name an existing memory",
        details: { field: "parent_memory_id", constraint: "exists" },
      },
    });
  });
});
