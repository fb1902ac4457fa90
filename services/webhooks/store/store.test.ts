import { beforeAll, describe, expect, test } from "bun:test";
import type Redis from "ioredis";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import { createWebhookStore, type NewDelivery, type WebhookStore } from ".";
import { partitionKeys, partitionOf } from "./keyspace";
import { endpointFixture } from "../record.fixture";

/** The webhooks store against a real Redis: endpoints, and deliveries through enqueue, claim and settle. */
const db = privateRedis("webhooks-store");
let redis: Redis;
let store: WebhookStore;

beforeAll(async () => {
  redis = await db.connect();
  store = createWebhookStore(redis);
});

const space = () => ({ tenant: `t${crypto.randomUUID().slice(0, 8)}`, env: "live" as const });

const endpoint = endpointFixture;

let seq = 0;
function delivery(webhookId: string, over: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id: crypto.randomUUID(),
    webhook_id: webhookId,
    tenant: "t",
    env: "live",
    event_id: `evt_${++seq}`,
    event_type: "memory.updated",
    memory_id: null,
    version: null,
    body: JSON.stringify({ n: seq }),
    manual: false,
    ...over,
  };
}

const attempt = (error: string | null = null) => ({
  at: new Date().toISOString(),
  status_code: error ? 500 : 200,
  latency_ms: 1.5,
  error,
  ok: error === null,
  manual: false,
});

/** Claims everything due in the endpoint's partition at `at`. */
const claimAll = async (webhookId: string, at = Date.now()) =>
  (await store.deliveries.claim(partitionOf(webhookId), at, 60_000, 100)).claimed.filter(
    (c) => c.webhook_id === webhookId,
  );

describe("endpoints", () => {
  test("insert, read, update with an expected value, delete", async () => {
    const s = space();
    const rec = endpoint({ description: "orders" });
    await store.endpoints.insert(s, rec);
    expect(await store.endpoints.get(s, rec.id)).toEqual(rec);
    expect(await store.endpoints.get({ ...s, env: "test" }, rec.id)).toBeNull();
    const changed = await store.endpoints.update(
      s,
      rec.id,
      { description: null, enabled: false },
      { secret: rec.secret },
    );
    expect(changed).toMatchObject({ description: null, enabled: false });
    expect(
      await store.endpoints.update(s, rec.id, { url: "https://x.example/" }, { secret: "whsec_b3RoZXI=" }),
    ).toBeNull();
    await store.endpoints.delete(s, rec.id);
    expect(await store.endpoints.get(s, rec.id)).toBeNull();
    await expect(store.endpoints.update(s, rec.id, { enabled: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  test("at most 20 per tenant and environment: the 21st is a max_count refusal", async () => {
    const s = space();
    for (let i = 0; i < 20; i++) await store.endpoints.insert(s, endpoint());
    await expect(store.endpoints.insert(s, endpoint())).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "webhooks", constraint: "max_count", max: 20 },
    });
    expect((await store.endpoints.page(s, 0, 50)).total).toBe(20);
  });

  test("health: failures start the record, disable after the threshold; a success clears it", async () => {
    const s = space();
    const rec = endpoint();
    await store.endpoints.insert(s, rec);
    const t0 = Date.now();
    expect(await store.endpoints.health(s, rec.id, false, t0, 1000)).toBe(false);
    expect((await store.endpoints.get(s, rec.id))?.failing_since).toBe(t0);
    expect(await store.endpoints.health(s, rec.id, true, t0 + 10, 1000)).toBe(false);
    expect((await store.endpoints.get(s, rec.id))?.failing_since).toBeNull();
    expect(await store.endpoints.health(s, rec.id, false, t0 + 20, 1000)).toBe(false);
    expect(await store.endpoints.health(s, rec.id, false, t0 + 1019, 1000)).toBe(false);
    expect(await store.endpoints.health(s, rec.id, false, t0 + 1020, 1000)).toBe(true);
    expect(await store.endpoints.get(s, rec.id)).toMatchObject({ enabled: false, disabled_reason: "failing" });
    expect(await store.endpoints.health(s, rec.id, false, t0 + 5000, 1000)).toBe(false); // already disabled
  });
});

describe("deliveries", () => {
  test("enqueue is idempotent per delivery id", async () => {
    const wh = crypto.randomUUID();
    const d = delivery(wh);
    expect(await store.deliveries.enqueue([d], Date.now())).toBe(1);
    expect(await store.deliveries.enqueue([d], Date.now())).toBe(0);
    expect((await store.deliveries.page(wh, 0, 10)).total).toBe(1);
  });

  test("claim leases: a claimed delivery is not claimed again until its lease ends", async () => {
    const wh = crypto.randomUUID();
    const d = delivery(wh);
    const t = Date.now();
    await store.deliveries.enqueue([d], t);
    const first = await claimAll(wh, t);
    expect(first.map((c) => [c.id, c.attempt])).toEqual([[d.id, 1]]);
    expect(await claimAll(wh, t + 59_000)).toEqual([]);
    const again = await claimAll(wh, t + 60_001);
    expect(again.map((c) => [c.id, c.attempt])).toEqual([[d.id, 2]]);
    // The first claim lost the delivery: its settle changes nothing.
    expect(await store.deliveries.settle(first[0]!, attempt(), "succeeded", null, Date.now())).toBeNull();
    expect(await store.deliveries.settle(again[0]!, attempt(), "succeeded", null, Date.now())).toEqual({ due: null });
    expect(await store.deliveries.get(wh, d.id)).toMatchObject({ status: "succeeded", attempt_count: 2 });
  });

  test("a retry is due at its time; failed and succeeded deliveries expire after the retention", async () => {
    const wh = crypto.randomUUID();
    const d = delivery(wh);
    const t = Date.now();
    await store.deliveries.enqueue([d], t);
    const [c] = await claimAll(wh, t);
    expect(await store.deliveries.settle(c!, attempt("HTTP 500"), "retry", t + 5000, t)).toEqual({ due: t + 5000 });
    expect(await store.deliveries.get(wh, d.id)).toMatchObject({
      status: "pending",
      next_attempt_at: new Date(t + 5000).toISOString(),
      attempts: [{ status_code: 500, error: "HTTP 500" }],
    });
    expect(await claimAll(wh, t + 4999)).toEqual([]);
    const [again] = await claimAll(wh, t + 5000);
    await store.deliveries.settle(again!, attempt("HTTP 500"), "failed", null, t);
    expect((await store.deliveries.get(wh, d.id))?.status).toBe("failed");
    expect(await redis.pttl(partitionKeys(partitionOf(wh)).record(d.id))).toBeGreaterThan(6 * 24 * 3600_000);
  });

  test("lanes: a memory's events go one at a time in version order; other memories do not wait", async () => {
    const wh = crypto.randomUUID();
    const [m1, m2] = [crypto.randomUUID(), crypto.randomUUID()];
    const v = (memory: string, version: number) => delivery(wh, { memory_id: memory, version });
    const [a1, a3, a2, b1] = [v(m1, 1), v(m1, 3), v(m1, 2), v(m2, 1)];
    const t = Date.now();
    await store.deliveries.enqueue([a1, a3, a2, b1], t);
    const statuses = async () => (await store.deliveries.page(wh, 0, 10)).items.map((d) => [d.id, d.status] as const);
    expect(new Map(await statuses())).toEqual(
      new Map([
        [a1.id, "pending"],
        [a3.id, "queued"],
        [a2.id, "queued"],
        [b1.id, "pending"],
      ]),
    );
    const order: string[] = [];
    const handedOn: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (const c of await claimAll(wh, t + round)) {
        order.push(c.id);
        const outcome = round === 0 && c.id === a1.id ? "failed" : "succeeded";
        const settled = await store.deliveries.settle(c, attempt(), outcome, null, t);
        // Settling says when it made the lane's next event due, so the worker claims it without polling.
        if (settled?.due === t) handedOn.push(c.id);
      }
    }
    expect(handedOn).toEqual([a1.id, a2.id]);
    // a1 failing (gave up) still hands the lane on: a2, then a3.
    expect(order.filter((id) => id !== b1.id)).toEqual([a1.id, a2.id, a3.id]);
    expect(order).toContain(b1.id);
    expect(await redis.hlen(partitionKeys(partitionOf(wh)).active)).toBe(0);
  });

  test("retry by hand: a failed delivery gets one more attempt; a queued one leaves its lane", async () => {
    const wh = crypto.randomUUID();
    const memory = crypto.randomUUID();
    const [d1, d2] = [delivery(wh, { memory_id: memory, version: 1 }), delivery(wh, { memory_id: memory, version: 2 })];
    const t = Date.now();
    await store.deliveries.enqueue([d1, d2], t);
    const retried = await store.deliveries.retry(wh, d2.id, t);
    expect(retried).toMatchObject({ status: "pending", next_attempt_at: new Date(t).toISOString() });
    const claimed = await claimAll(wh, t);
    expect(claimed.map((c) => c.id).sort()).toEqual([d1.id, d2.id].sort());
    for (const c of claimed) await store.deliveries.settle(c, attempt("HTTP 500"), "failed", null, t);
    const manual = await store.deliveries.retry(wh, d1.id, t + 1);
    expect(manual.status).toBe("pending");
    const [again] = await claimAll(wh, t + 1);
    expect(again).toMatchObject({ id: d1.id, manual: true, attempt: 2 });
    await expect(store.deliveries.retry(crypto.randomUUID(), d1.id, t)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  test("purge removes an endpoint's deliveries, lanes and schedule", async () => {
    const wh = crypto.randomUUID();
    const memory = crypto.randomUUID();
    const ds = Array.from({ length: 5 }, (_, i) => delivery(wh, { memory_id: memory, version: i + 1 }));
    await store.deliveries.enqueue(ds, Date.now());
    await store.deliveries.purge(wh);
    const k = partitionKeys(partitionOf(wh));
    expect((await store.deliveries.page(wh, 0, 10)).total).toBe(0);
    expect(await redis.exists(k.lane(`${wh}:${memory}`), k.log(wh), ...ds.map((d) => k.record(d.id)))).toBe(0);
    expect(await redis.zscore(k.due, ds[0]!.id)).toBeNull();
    expect(await redis.hexists(k.active, `${wh}:${memory}`)).toBe(0);
  });

  test("listing filters by status and pages newest first", async () => {
    const wh = crypto.randomUUID();
    const t = Date.now();
    const ds = [delivery(wh), delivery(wh), delivery(wh)];
    for (const [i, d] of ds.entries()) await store.deliveries.enqueue([d], t + i);
    const [c] = (await claimAll(wh, t + 10)).filter((x) => x.id === ds[0]!.id);
    await store.deliveries.settle(c!, attempt(), "succeeded", null, t);
    const page = await store.deliveries.page(wh, 0, 2);
    expect([page.total, page.items.map((d) => d.id)]).toEqual([3, [ds[2]!.id, ds[1]!.id]]);
    const done = await store.deliveries.page(wh, 0, 10, "succeeded");
    expect([done.total, done.items.map((d) => d.id)]).toEqual([1, [ds[0]!.id]]);
  });
});
