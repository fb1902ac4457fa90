import { expect, test } from "bun:test";
import Redis from "ioredis";
import { connect } from "nats";
import { createBus } from "../../services/kit/bus";
import { createMemory, listMemories } from "../../services/contract/memories";
import { listTags } from "../../services/contract/tags";
import { verifyKey } from "../../services/contract/keys";
import { exitedProcesses, fileStack, waitFor } from "./fault-stack";
import { closedLoop } from "./fault-load";
import { type Client, Recorder, tenantClient } from "./fault-recorder";
import { figure, fmtSummary, percentile, summarize } from "./fault-figures";

/**
 * Fault 3: kill -9 of Redis during a burst of creates (each followed by a tag attach), then a restart
 * from its AOF (appendfsync everysec). Every create and attach that answered 200 must be there
 * afterwards, and the derived data (tag memory_count, list totals, tag filters) must agree with it.
 * While Redis is down, every request answers 503 fast and never 500.
 */

const fault = fileStack("redis");

/** Every page of a list (limit 100), through meta.has_more; also returns meta.total of the first page. */
async function listAll(client: Client, path: string): Promise<{ items: any[]; total: number }> {
  const items: any[] = [];
  let total = -1;
  for (let offset = 0; offset < 100_000; offset += 100) {
    const r = await client.call("verify", "GET", `${path}${path.includes("?") ? "&" : "?"}limit=100&offset=${offset}`);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    if (total < 0) total = r.body.meta.total;
    items.push(...r.body.data);
    if (!r.body.meta.has_more) break;
  }
  return { items, total };
}

test("kill -9 of Redis during a burst of creates with tags: " +
  "0 acknowledged writes lost, counts consistent; 503s meanwhile, fast", async () => {
  const stack = fault.stack;
  const rec = new Recorder();
  const client = await tenantClient(stack, rec);
  const tagIds: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await client.call("seed", "POST", "/v1/tags", { name: `burst-${i}` });
    tagIds.push(r.body.data.id);
  }
  const probe = new Redis(stack.redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  await probe.connect();
  const aofBefore = /aof_delayed_fsync:(\d+)/.exec(await probe.info("persistence"))?.[1];
  probe.disconnect();

  const created = new Map<string, string>(); // acknowledged creates: id → content
  const attached = new Map<string, Set<string>>(); // acknowledged attaches: memory id → tag ids
  let attempts = 0;
  let killedAt = Infinity;
  let done = false;
  const burst = closedLoop({
    concurrency: 16,
    maxMs: 30_000,
    until: () => done,
    task: async () => {
      const content = `burst memory ${attempts++} ${crypto.randomUUID()}`;
      const c = await client.call("create", "POST", "/v1/memories", { content });
      if (c.status !== 200) return void (await Bun.sleep(20)); // a client backs off a little on 503
      created.set(c.body.data.id, content);
      const tags = tagIds.filter(() => Math.random() < 0.5);
      if (tags.length === 0) return;
      const a = await client.call("attach", "POST", `/v1/memories/${c.body.data.id}/tags`, { tag_ids: tags });
      if (a.status === 200) attached.set(c.body.data.id, new Set(tags));
    },
  });
  // Kill once the burst is in full swing: 150 creates acknowledged (bounded wait).
  await waitFor(() => created.size >= 150, 15_000);
  const createdBeforeKill = created.size;
  killedAt = rec.now();
  await stack.redis!.kill9();
  await Bun.sleep(1500); // the burst goes on against a dead Redis
  done = true;
  await burst;

  // Redis down: a request answers 503 at once, never 500, never hangs (liveness stays up meanwhile).
  const down: { ms: number; status: number }[] = [];
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    const r = await client.call(
      "down",
      i % 2 ? "GET" : "POST",
      i % 2 ? "/v1/memories?limit=5" : "/v1/memories",
      i % 2 ? undefined : { content: "x" },
    );
    down.push({ ms: performance.now() - t, status: r.status });
  }
  // The gateway's limiter refuses first (fail closed); the services must be as quick on their own:
  // their ioredis has no offline queue. Called straight over NATS, as the gateway would.
  const nc = await connect({ servers: stack.natsUrl });
  const bus = createBus(nc, { timeoutMs: 5000 });
  const caller = { tenant: client.tenant, env: "live" as const, keyId: "fault-test", scopes: ["*" as const] };
  const direct: { op: string; ms: number; code: string }[] = [];
  for (const [name, call] of [
    ["memories.create", () => bus.call(createMemory, { content: "x" }, { requestId: "down-1", caller })],
    ["memories.list", () => bus.call(listMemories, {}, { requestId: "down-2", caller })],
    ["tags.list", () => bus.call(listTags, {}, { requestId: "down-3", caller })],
    ["keys.verify", () => bus.call(verifyKey, { hash: "0".repeat(64) }, { requestId: "down-4" })],
  ] as const) {
    const t = performance.now();
    const code = await (call as () => Promise<unknown>)().then(
      () => "OK",
      (e) => (e as { code: string }).code,
    );
    direct.push({ op: name, ms: performance.now() - t, code });
  }
  await nc.close();
  const healthz = (await fetch(`${stack.baseUrl}/healthz`)).status;
  const readyzDown = (await fetch(`${stack.baseUrl}/readyz`)).status;

  const restartStarted = performance.now();
  await stack.redis!.restart();
  const restartMs = performance.now() - restartStarted;
  const readyMs = await waitFor(async () => (await fetch(`${stack.baseUrl}/readyz`)).status === 200, 15_000);
  const firstOkMs = await waitFor(
    async () => (await client.call("verify", "GET", "/v1/memories?limit=1")).status === 200,
    15_000,
  );

  // 1. Every acknowledged create is readable, with its content and at least its acknowledged tags.
  const missing: string[] = [];
  const wrongTags: string[] = [];
  const ids = [...created.keys()];
  for (let i = 0; i < ids.length; i += 16) {
    await Promise.all(
      ids.slice(i, i + 16).map(async (id) => {
        const r = await client.call("verify", "GET", `/v1/memories/${id}`);
        if (r.status !== 200 || r.body.data.content !== created.get(id)) return void missing.push(id);
        const have = new Set((r.body.data.tags as { id: string }[]).map((t) => t.id));
        if ([...(attached.get(id) ?? [])].some((t) => !have.has(t))) wrongTags.push(id);
      }),
    );
  }
  // 2. Derived data agrees with the records: list total = items listed ⊇ acknowledged creates, and no
  //    more than the creates that were attempted; per tag, memory_count = tag-filtered list = records.
  const all = await listAll(client, "/v1/memories");
  const listed = new Set(all.items.map((m) => m.id));
  const tagChecks = await Promise.all(
    tagIds.map(async (tagId) => {
      const tag = await client.call("verify", "GET", `/v1/tags/${tagId}`);
      const filtered = await listAll(client, `/v1/memories?tag_id=${tagId}`);
      const carrying = all.items.filter((m) => (m.tags as { id: string }[]).some((t) => t.id === tagId)).length;
      return {
        count: tag.body.data.memory_count as number,
        filteredTotal: filtered.total,
        filteredItems: filtered.items.length,
        carrying,
      };
    }),
  );

  const duringBurst = rec.samples.filter((s) => s.op === "create" || s.op === "attach");
  const afterKill = duringBurst.filter((s) => s.start >= killedAt);
  figure(
    "3 redis",
    `burst: 16 concurrent create(+attach) loops; ${createdBeforeKill} creates acknowledged before kill -9 of Redis, ` +
      `${created.size} in all, ${attempts} attempted`,
  );
  figure("3 redis", `requests sent after the kill: ${fmtSummary(summarize(afterKill))}`);
  const downStatuses = JSON.stringify(
    summarize(down.map((d, i) => ({ op: "down", start: 0, end: d.ms, status: d.status, i }))).byStatus,
  );
  const downP50 = percentile(
    down.map((d) => d.ms),
    50,
  ).toFixed(1);
  const downMax = Math.max(...down.map((d) => d.ms)).toFixed(1);
  figure(
    "3 redis",
    `Redis down: ${down.length} requests → statuses ${downStatuses}, ` +
      `p50 ${downP50} ms, max ${downMax} ms; /healthz ${healthz}, /readyz ${readyzDown}`,
  );
  figure(
    "3 redis",
    "Redis down, services called directly over NATS: " +
      `${direct.map((d) => `${d.op} ${d.code} in ${d.ms.toFixed(1)} ms`).join(", ")}`,
  );
  figure(
    "3 redis",
    `restart from AOF: ${restartMs.toFixed(0)} ms; /readyz 200 ${readyMs?.toFixed(0)} ms later, ` +
      `first API 200 after ${firstOkMs?.toFixed(0)} ms (aof_delayed_fsync before kill: ${aofBefore})`,
  );
  figure(
    "3 redis",
    `acknowledged creates lost: ${missing.length} of ${created.size}; ` +
      `acknowledged attaches lost: ${wrongTags.length} of ${attached.size}`,
  );
  figure(
    "3 redis",
    `list total ${all.total}, listed ${listed.size}; per tag (memory_count / filtered total / carrying): ` +
      `${tagChecks.map((t) => `${t.count}/${t.filteredTotal}/${t.carrying}`).join(", ")}`,
  );

  expect(exitedProcesses(stack)).toEqual([]); // reconnected by themselves, nobody crashed
  expect(createdBeforeKill).toBeGreaterThanOrEqual(150);
  expect(missing).toEqual([]);
  expect(wrongTags).toEqual([]);
  expect(all.total).toBe(listed.size);
  expect([...created.keys()].filter((id) => !listed.has(id))).toEqual([]);
  expect(all.total).toBeLessThanOrEqual(attempts);
  for (const t of tagChecks) {
    expect(t.count).toBe(t.filteredTotal);
    expect(t.count).toBe(t.filteredItems);
    expect(t.count).toBe(t.carrying);
  }
  // No 500 ever; what failed in the burst failed with 503.
  expect(duringBurst.filter((s) => s.status !== 200 && s.status !== 503)).toEqual([]);
  expect(down.every((d) => d.status === 503)).toBe(true);
  expect(Math.max(...down.map((d) => d.ms))).toBeLessThan(100);
  expect(direct.map((d) => d.code)).toEqual(direct.map(() => "SERVICE_UNAVAILABLE"));
  expect(Math.max(...direct.map((d) => d.ms))).toBeLessThan(100);
  expect(healthz).toBe(200);
  expect(readyzDown).toBe(503);
  expect(readyMs).not.toBeNull();
}, 120_000);
