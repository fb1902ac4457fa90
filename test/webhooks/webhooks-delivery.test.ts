import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { createMemory, deliveries, eventually, newestDelivery, receiver, register, verify } from "./webhook-helpers";
import { DeliveryAttempt } from "../../services/contract/webhooks";

/**
 * Deliveries from the running stack to a receiver on loopback: signed bodies, retries, order per memory,
 * secret rotation, disabling, retry by hand, refused addresses. The test stack's schedule retries after
 * 0.2, 0.4, 0.8 and 1.6 s and disables an endpoint after 2 s of failures (test/harness.ts).
 */
let stack: Stack;
let api: ApiClient;

beforeAll(async () => {
  stack = await testStack();
  api = (await newTenant(stack.baseUrl, stack.adminKey)).api;
});

describe("a delivery", () => {
  test("is signed (Standard Webhooks) and carries type, timestamp, the memory and a stable id, no tenant", async () => {
    const r = receiver();
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const { secret } = await register(t.api, r.url("/signed"));
    const id = await createMemory(t.api, "a signed memory");
    const [got] = await eventually(() => r.at("/signed").length === 1 && r.at("/signed"), 10_000, "the delivery");
    const body = verify(secret, got!) as any;
    expect(body).toMatchObject({ type: "memory.created", data: { memory_id: id, version: 1, changed: [] } });
    expect(body.data.memory).toMatchObject({ id, content: "a signed memory" });
    expect(Date.parse(body.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(got!.headers["webhook-id"]).toBe(body.id);
    expect(body.id).toMatch(/^evt_[0-9a-f-]{36}$/);
    expect(got!.body).not.toContain(t.tenant);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(() => verify(secret, { ...got!, body: got!.body.replace("signed", "forged") })).toThrow();
  });

  test("goes only to endpoints subscribed to its type", async () => {
    const r = receiver();
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    await register(t.api, r.url("/deletes"), ["memory.deleted"]);
    await register(t.api, r.url("/all"), ["*"]);
    const id = await createMemory(t.api, "short-lived");
    await t.api.patch(`/v1/memories/${id}`, { content: "changed" });
    await t.api.delete(`/v1/memories/${id}`);
    await eventually(() => r.at("/all").length === 3, 10_000, "three events");
    await eventually(() => r.at("/deletes").length === 1, 10_000, "the delete");
    expect(r.at("/all").map((g) => g.event.type)).toEqual(["memory.created", "memory.updated", "memory.deleted"]);
    expect(r.at("/deletes")[0]!.event.data).toMatchObject({ memory_id: id, memory: null, version: 3 });
    expect(r.at("/all")[1]!.event.data.changed).toEqual(["content"]);
  });

  test("is retried after 500s with the same id and body, and listed with its attempts", async () => {
    const r = receiver((_, before) => (before < 2 ? 500 : 200));
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const { id: webhookId } = await register(t.api, r.url("/retried"));
    const memoryId = await createMemory(t.api, "retry me");
    await eventually(() => r.at("/retried").length === 3, 10_000, "three attempts");
    const attempts = r.at("/retried");
    expect(new Set(attempts.map((g) => g.body)).size).toBe(1);
    expect(new Set(attempts.map((g) => g.headers["webhook-id"])).size).toBe(1);
    // The schedule's first two waits (0.2 s and 0.4 s, ±20 %) separate the attempts.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(150);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(300);
    const d = await newestDelivery(t.api, webhookId, "succeeded");
    expect(d).toMatchObject({ event_type: "memory.created", memory_id: memoryId, attempt_count: 3 });
    expect(d.next_attempt_at).toBeNull();
    expect(d.attempts.map((a: any) => [a.status_code, a.error, a.ok, a.manual])).toEqual([
      [500, "HTTP 500", false, false],
      [500, "HTTP 500", false, false],
      [200, null, true, false],
    ]);
    // Exactly the fields the contract (and so the docs and the OpenAPI document) lists.
    for (const a of d.attempts) expect(Object.keys(a).sort()).toEqual(Object.keys(DeliveryAttempt.properties).sort());
    expect(d.attempts.every((a: any) => a.latency_ms >= 0 && Date.parse(a.at) > 0)).toBe(true);
    expect((await t.api.get(`/v1/webhooks/${webhookId}`)).body.data.failing_since).toBeNull();
  });

  test("a pending retry shows when it is due", async () => {
    const r = receiver(() => 503);
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const { id: webhookId } = await register(t.api, r.url("/due"));
    await createMemory(t.api, "due later");
    const [d] = await eventually(async () => {
      const list = await deliveries(t.api, webhookId, "&status=pending");
      return list[0]?.attempt_count === 1 && list[0]?.next_attempt_at && list;
    }, 10_000);
    const due = Date.parse(d.next_attempt_at) - Date.parse(d.attempts[0].at);
    expect(due).toBeGreaterThanOrEqual(150);
    expect(due).toBeLessThan(1000);
    expect(d.attempts[0]).toMatchObject({ status_code: 503, error: "HTTP 503" });
    expect((await t.api.get(`/v1/webhooks/${webhookId}`)).body.data.failing_since).toBeString();
  });
});

describe("order", () => {
  test("the events of one memory arrive in version order, even when one of them needs retries", async () => {
    // Version 3 of every memory fails twice; the memory's later events wait for it, other memories do not.
    const r = receiver(async (got, before) => {
      await Bun.sleep(5);
      return got.event.data.version === 3 && before < 2 ? 500 : 200;
    });
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    await register(t.api, r.url("/ordered"));
    const memories = await Promise.all([0, 1, 2].map((i) => createMemory(t.api, `ordered ${i}`)));
    await Promise.all(
      memories.map(async (id) => {
        for (let v = 2; v <= 8; v++) await t.api.patch(`/v1/memories/${id}`, { metadata: { v } });
      }),
    );
    await eventually(() => r.at("/ordered").length === 3 * 8 + 3 * 2, 15_000, "every event and retry");
    for (const id of memories) {
      const versions = r
        .at("/ordered")
        .filter((g) => g.event.data.memory_id === id)
        .map((g) => g.event.data.version);
      expect(versions).toEqual([1, 2, 3, 3, 3, 4, 5, 6, 7, 8]);
    }
  });
  test("each memory of a batch create gets its own memory.created delivery, with its own id", async () => {
    const r = receiver();
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    await register(t.api, r.url("/batch"), ["memory.created"]);
    const res = await t.api.post("/v1/memories/batch", {
      items: [{ content: "first" }, { content: "second", parent_ref: 0 }, { content: "third" }],
    });
    expect(res.status).toBe(200);
    const ids = (res.body.data.items as { data: { id: string } }[]).map((i) => i.data.id);
    await eventually(() => r.at("/batch").length === 3, 10_000, "three deliveries");
    // Order holds per memory only: memories' deliveries go out side by side.
    expect(
      r
        .at("/batch")
        .map((g) => g.event.data.memory_id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(new Set(r.at("/batch").map((g) => g.event.id)).size).toBe(3);
  });
});

describe("the endpoint's health", () => {
  test("an endpoint failing every attempt for the threshold is disabled, and gets nothing more", async () => {
    const r = receiver(() => 500);
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const { id: webhookId } = await register(t.api, r.url("/failing"));
    await createMemory(t.api, "never delivered");
    const disabled = await eventually(
      async () => {
        const w = (await t.api.get(`/v1/webhooks/${webhookId}`)).body.data;
        return !w.enabled && w;
      },
      15_000,
      "the endpoint disabled",
    );
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: "failing" });
    expect(Date.parse(disabled.disabled_at) - Date.parse(disabled.failing_since)).toBeGreaterThanOrEqual(2000);
    const [d] = await deliveries(t.api, webhookId);
    expect(d).toMatchObject({ status: "failed", attempt_count: 5 });
    const seen = r.at("/failing").length;
    await createMemory(t.api, "not for a disabled endpoint");
    await Bun.sleep(500);
    expect(r.at("/failing").length).toBe(seen);
    expect((await deliveries(t.api, webhookId)).length).toBe(1);
    // Enabled again by hand, it receives again, its failure record cleared.
    const on = (await t.api.patch(`/v1/webhooks/${webhookId}`, { enabled: true })).body.data;
    expect([on.enabled, on.failing_since, on.disabled_reason]).toEqual([true, null, null]);
    r.answerWith(() => 200);
    await createMemory(t.api, "welcome back");
    await eventually(() => r.at("/failing").some((g) => g.event.data.memory?.content === "welcome back"), 10_000);
  });

  test("a failed delivery is retried by hand: one attempt now, listed as manual", async () => {
    const r = receiver(() => 500);
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const { id: webhookId, secret } = await register(t.api, r.url("/manual"));
    await createMemory(t.api, "retry by hand");
    const failed = await newestDelivery(t.api, webhookId, "failed", 15_000);
    r.answerWith(() => 200);
    const res = await t.api.post(`/v1/webhooks/${webhookId}/deliveries/${failed.id}/retry`);
    expect(res.body.data).toMatchObject({ id: failed.id, status: "pending" });
    const done = await newestDelivery(t.api, webhookId, "succeeded", 10_000);
    expect(done.attempt_count).toBe(failed.attempt_count + 1);
    expect(done.attempts.at(-1)).toMatchObject({ status_code: 200, manual: true });
    const last = r.at("/manual").at(-1)!;
    expect(last.headers["webhook-id"]).toBe(failed.event_id);
    expect(verify(secret, last)).toBeTruthy();
  });

  test("the test call sends a signed ping, whatever the endpoint subscribes to", async () => {
    const r = receiver();
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const { id: webhookId, secret } = await register(t.api, r.url("/ping"), ["memory.deleted"]);
    const res = await t.api.post(`/v1/webhooks/${webhookId}/test`);
    expect(res.body.data).toMatchObject({ webhook_id: webhookId, event_type: "ping", memory_id: null });
    const [got] = await eventually(() => r.at("/ping").length === 1 && r.at("/ping"), 10_000, "the ping");
    expect(verify(secret, got!)).toMatchObject({ type: "ping", data: { memory: null } });
  });
});

describe("secret rotation", () => {
  test("both secrets sign during the grace: receivers with the old or the new one verify", async () => {
    const r = receiver();
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const { id: webhookId, secret: old } = await register(t.api, r.url("/rotated"));
    const fresh = (await t.api.post(`/v1/webhooks/${webhookId}/rotate-secret`)).body.data.secret;
    await createMemory(t.api, "after the rotation");
    const [got] = await eventually(() => r.at("/rotated").length === 1 && r.at("/rotated"), 10_000);
    expect(got!.headers["webhook-signature"]!.split(" ").length).toBe(2);
    expect(verify(old, got!)).toBeTruthy();
    expect(verify(fresh, got!)).toBeTruthy();
  });
});

describe("refused addresses", () => {
  test("a name that resolves to loopback is refused when the attempt is made: nothing is sent", async () => {
    const r = receiver();
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    // https to localhost registers (names are checked when resolved), and is refused at every attempt.
    const { id: webhookId } = await register(t.api, `https://localhost:${r.port}/ssrf`);
    await t.api.post(`/v1/webhooks/${webhookId}/test`);
    const d = await newestDelivery(t.api, webhookId, "failed", 10_000);
    expect(d.attempts[0]).toMatchObject({
      status_code: null,
      error: "refused: localhost resolves to a private or reserved address (127.0.0.1)",
    });
    expect(r.got.length).toBe(0);
  });
});
