import { afterAll, expect, test } from "bun:test";
import type Redis from "ioredis";
import { stackRedis, testStack } from "../harness";
import type { RedisClient } from "../../services/kit/redis-functions";
import { primariesOf } from "../../services/kit/redis-scan";
import { gqlTenant } from "../graphql/graphql-helpers";
import { eventually, word } from "../search/search-helpers";

const FULL = "Storage is full: the write was refused and nothing was changed";

let redis: RedisClient | null = null;
/** Every primary: on a Redis Cluster each shard has its own ceiling, and the test's tenant is on one of them. */
let primaries: Redis[] = [];
const unfill = () => Promise.all(primaries.map((p) => p.config("SET", "maxmemory", "0")));
afterAll(async () => {
  // Whatever happened, the run's other files get a Redis that accepts writes.
  await unfill();
  redis?.disconnect();
});

/** Redis at maxmemory with noeviction, as a data store is run: every write refused, every read served. */
async function fillRedis(client: Redis) {
  const used = Number(/used_memory:(\d+)/.exec(await client.info("memory"))![1]);
  await client.config("SET", "maxmemory-policy", "noeviction");
  await client.config("SET", "maxmemory", String(Math.max(1, used - 64 * 1024)));
  await expect(client.set(await ownKey(client), "x")).rejects.toThrow(/^OOM /);
}

/** A key the node serves itself: a cluster node answers MOVED, not OOM, for a key of another shard. */
async function ownKey(client: Redis): Promise<string> {
  if (/cluster_enabled:0/.test(await client.info("cluster"))) return `probe:${word()}`;
  const myself = String(await client.call("CLUSTER", "NODES"))
    .split("\n")
    .find((line) => line.includes("myself"))!;
  const ranges = myself
    .split(" ")
    .slice(8)
    .map((r) => r.split("-").map(Number) as [number, number?]);
  for (;;) {
    const key = `probe:${word()}`;
    const slot = Number(await client.call("CLUSTER", "KEYSLOT", key));
    if (ranges.some(([from, to = from]) => slot >= from && slot <= to)) return key;
  }
}

async function redisGauges(metricsUrl: string) {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);
  return { used: value("redis_used_memory_bytes"), max: value("redis_maxmemory_bytes") };
}

test("a full Redis: writes 507 STORAGE_FULL and change nothing, reads keep answering, all recovers", async () => {
  const stack = await testStack();
  redis = stackRedis(stack);
  primaries = await primariesOf(redis);
  const { api, gql } = await gqlTenant();
  const topic = word();
  const kept = (await api.post("/v1/memories", { content: `kept ${topic} before the disk filled` })).body.data;
  await eventually(async () => {
    const hits = (await api.post("/v1/search", { query: `kept ${topic}` })).body.data.results;
    expect(hits.map((m: { id: string }) => m.id)).toContain(kept.id);
  });

  await Promise.all(primaries.map(fillRedis));
  try {
    // Writes: the envelope with 507 and the code, REST and GraphQL alike; nothing half-written.
    for (const r of [
      await api.post("/v1/memories", { content: "refused" }),
      await api.patch(`/v1/memories/${kept.id}`, { content: "changed" }),
      await api.delete(`/v1/memories/${kept.id}`),
      await api.post("/v1/tags", { name: `t${topic}` }),
    ]) {
      expect({ status: r.status, code: r.body.error?.code, message: r.body.error?.message }).toEqual({
        status: 507,
        code: "STORAGE_FULL",
        message: FULL,
      });
      expect(r.body.meta.request_id).toMatch(/.+/);
    }
    // With an Idempotency-Key too: refused before it runs, so the key stays free for the retry (below).
    const keyed = await api.post("/v1/memories", { content: "keyed" }, { "Idempotency-Key": `full-${topic}` });
    expect([keyed.status, keyed.body.error?.code]).toEqual([507, "STORAGE_FULL"]);
    const mutation = await gql.raw(`mutation { createMemory(input: { content: "refused" }) { id } }`);
    expect(mutation.errors?.[0]?.extensions.code).toBe("STORAGE_FULL");

    // Reads, search and context: 200, the rate limiter deciding locally (its headers are there).
    const got = await api.get(`/v1/memories/${kept.id}`);
    expect([got.status, got.body.data.content]).toEqual([200, kept.content]);
    const listed = await api.get("/v1/memories");
    expect([listed.status, listed.body.meta.total]).toEqual([200, 1]);
    expect(listed.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    const found = await api.post("/v1/search", { query: `kept ${topic}` });
    expect(found.status).toBe(200);
    expect(found.body.data.results.map((m: { id: string }) => m.id)).toContain(kept.id);
    const context = await api.post("/v1/context", { query: `kept ${topic}` });
    expect([context.status, context.body.data.context.includes(topic)]).toEqual([200, true]);
    expect((await api.get("/v1/tags")).status).toBe(200);
    const query = await gql.raw(`query($id: ID!) { memory(id: $id) { content } }`, { id: kept.id });
    expect(query.data?.memory?.content).toBe(kept.content);

    // Operators see it: the gateway's /metrics shows Redis at its ceiling (INFO is read at most once a second:
    // a scrape just before the fill, by another test, may still be served). The ceiling is 64 KiB under what
    // was used; client buffers and expiring keys of the run's other files can free that much meanwhile.
    await eventually(async () => {
      const gauges = await redisGauges(stack.metricsUrl);
      expect(gauges.max).toBeGreaterThan(0);
      expect(gauges.used).toBeGreaterThan(gauges.max * 0.95);
    }, 5000);
  } finally {
    await unfill();
  }

  // Recovered at once: the write goes through, and the refused ones left no trace.
  const created = await api.post("/v1/memories", { content: "after" });
  expect(created.status).toBe(200);
  const retried = await api.post("/v1/memories", { content: "keyed" }, { "Idempotency-Key": `full-${topic}` });
  expect([retried.status, retried.headers.get("idempotent-replayed")]).toEqual([200, null]);
  const all = (await api.get("/v1/memories?limit=100")).body;
  expect(all.meta.total).toBe(3);
  expect(all.data.find((m: { id: string }) => m.id === kept.id).content).toBe(kept.content);
  expect((await api.get("/v1/tags")).body.meta.total).toBe(0);
  await Bun.sleep(1100); // past the gauges' one-second memo
  expect((await redisGauges(stack.metricsUrl)).max).toBe(0);
}, 60_000);
