import { beforeAll, describe, expect, test } from "bun:test";
import { privateRedis } from "../../../scripts/stack/redis.fixture";
import type { HandlerContext } from "../../kit/handler";
import { createLogger } from "../../kit/log";
import { createWebhookStore, type WebhookStore } from "../store";
import { partitionOf } from "../store/keyspace";
import { endpointHandlers } from "./endpoints";
import { deliveryHandlers } from "./deliveries";

/** The webhooks handlers as plain functions, over the real store on a private Redis. */
const db = privateRedis("webhooks-handlers");
let store: WebhookStore;
const woken: number[][] = [];

beforeAll(async () => {
  store = createWebhookStore(await db.connect());
});

const ctx = (env: "live" | "test" = "live", tenant = `t${crypto.randomUUID().slice(0, 8)}`): HandlerContext => ({
  caller: { tenant, env, keyId: "k", scopes: ["admin"] },
  requestId: "r",
  log: createLogger({}, "error"),
});
const handlers = () => {
  const deps = { store, allowed: new Set(["127.0.0.1"]), wake: (p: Iterable<number>) => void woken.push([...p]) };
  const d = deliveryHandlers(deps);
  return { ...endpointHandlers(deps), ping: d.ping, deliveries: d.list, retry: d.retry };
};

describe("endpoint handlers", () => {
  test("create: the caller's environment, events normalised, the URL checked before anything is stored", async () => {
    const h = handlers();
    const c = ctx("test");
    const made = await h.create({ url: "https://a.example/", events: ["memory.created", "*"] }, c);
    expect([made.environment, made.events, made.secret.startsWith("whsec_")]).toEqual(["test", ["*"], true]);
    await expect(h.create({ url: "http://169.254.169.254/", events: ["*"] }, c)).rejects.toMatchObject({
      details: { field: "url", constraint: "blocked_address" },
    });
    expect((await h.list({}, c)).total).toBe(1);
    await expect(h.get({ id: made.id }, ctx("live", c.caller!.tenant))).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  test("update: an empty change writes nothing; enabled true clears the failure record", async () => {
    const h = handlers();
    const c = ctx();
    const made = await h.create({ url: "https://a.example/", events: ["*"] }, c);
    expect(await h.update({ id: made.id }, c)).toEqual(await h.get({ id: made.id }, c));
    await store.endpoints.health(c.caller!, made.id, false, Date.now() - 10_000, 1000);
    await store.endpoints.health(c.caller!, made.id, false, Date.now(), 1000);
    expect(await h.get({ id: made.id }, c)).toMatchObject({ enabled: false, disabled_reason: "failing" });
    const on = await h.update({ id: made.id, enabled: true }, c);
    expect(on).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
  });

  test("rotations racing each other all succeed, each replacing the secret the previous one set", async () => {
    const h = handlers();
    const c = ctx();
    const made = await h.create({ url: "https://a.example/", events: ["*"] }, c);
    const rotated = await Promise.all(Array.from({ length: 5 }, () => h.rotate({ id: made.id }, c)));
    const secrets = new Set([made.secret, ...rotated.map((r) => r.secret)]);
    expect(secrets.size).toBe(6);
    const rec = (await store.endpoints.get(c.caller!, made.id))!;
    expect(secrets.has(rec.secret) && secrets.has(rec.previous_secret!)).toBe(true);
    expect(rec.previous_secret).not.toBe(rec.secret);
  });
});

describe("delivery handlers", () => {
  test("a ping is a manual delivery in the endpoint's partition, and wakes that partition", async () => {
    const h = handlers();
    const c = ctx();
    const made = await h.create({ url: "http://127.0.0.1:9/", events: ["memory.deleted"] }, c);
    woken.length = 0;
    const ping = await h.ping({ id: made.id }, c);
    expect(ping).toMatchObject({ webhook_id: made.id, event_type: "ping", status: "pending", memory_id: null });
    expect(woken).toEqual([[partitionOf(made.id)]]);
    const page = await h.deliveries({ id: made.id }, c);
    expect(page.items.map((d) => d.id)).toEqual([ping.id]);
    const [claimed] = (await store.deliveries.claim(partitionOf(made.id), Date.now(), 60_000, 100)).claimed.filter(
      (d) => d.id === ping.id,
    );
    expect(claimed).toMatchObject({ manual: true, attempt: 1 });
    expect(JSON.parse(claimed!.body)).toMatchObject({ type: "ping", data: { memory: null } });
  });

  test("deleting an endpoint removes its deliveries; its ids are then unknown", async () => {
    const h = handlers();
    const c = ctx();
    const made = await h.create({ url: "https://a.example/", events: ["*"] }, c);
    const ping = await h.ping({ id: made.id }, c);
    expect(await h.remove({ id: made.id }, c)).toEqual({ id: made.id, deleted: true });
    expect((await store.deliveries.page(made.id, 0, 10)).total).toBe(0);
    await expect(h.retry({ id: made.id, delivery_id: ping.id }, c)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(h.remove({ id: made.id }, c)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
