import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "../../scripts/stack/launch";
import { writeStackRecord } from "../../services/kit/local-stack";
import { apiClient, newTenant } from "../api";
import { eventually, receiver, register } from "../webhooks/webhook-helpers";
import { seed } from "../portability/portability-helpers";
import { drillStack, newDataDir, rawGet, runScript } from "./backup-helpers";

/**
 * The backup drill: a stack filled with everything an install holds, backed up (`npm run backup`) while a client
 * goes on writing, restored (`npm run restore`) into the data directory of a new stack on other ports. What the
 * API answers afterwards is compared with what it answered before: byte for byte for every write acknowledged
 * before the backup's point, and the same for search, usage, quotas and settings; webhook deliveries pending at
 * the point go out once from the restored stack; a key revoked before stays revoked.
 */
const dirA = newDataDir("drill-a");
const dirB = newDataDir("drill-b");
const backup = join(newDataDir("drill-backup"), "backup");
let a: Stack;
let b: Stack | null = null;

// Down while the first stack runs (deliveries stay pending), up once the restored one does.
let receiverUp = false;
let upAt = Number.POSITIVE_INFINITY;
const hooks = receiver(() => (receiverUp ? 200 : 503));

/** What the first stack held, read just before the backup. */
const before = {
  tenant: "",
  key: "",
  paths: [] as string[],
  bodies: new Map<string, string>(),
  searches: new Map<string, unknown>(),
  usageKeyId: "",
  usage: null as unknown,
  storage: null as unknown,
  revokedKey: "",
  token: "",
};
/** The writer's tenant, its acknowledged creates (memory id, when the answer came) and the endpoint. */
const writer = { key: "", acked: [] as { id: string; at: number }[], hook: "" };
let point = 0;
const QUERIES = ["thread root", "Ann Porto", "turn"];

const search = async (baseUrl: string, key: string, query: string) => {
  const res = await apiClient(baseUrl, key).post("/v1/search", { query, limit: 10 });
  return (res.body.data.results as { id: string; score: number }[]).map((r) => [r.id, r.score]);
};
const usageOf = async (baseUrl: string, key: string, keyId: string) => {
  const res = await apiClient(baseUrl, key).get(`/v1/usage?key_id=${keyId}`);
  const { totals, by_day, by_endpoint } = res.body.data;
  return { totals, by_day, by_endpoint };
};

async function fill(): Promise<void> {
  const t = await newTenant(a.baseUrl, a.adminKey);
  before.tenant = t.tenant;
  before.key = t.key;
  await seed(t.api);
  const root = apiClient(a.baseUrl, a.adminKey);
  expect(
    (await root.patch("/v1/tenant", { tenant_id: t.tenant, quota: { memories: 500, bytes: 2_000_000 } })).status,
  ).toBe(200);
  const settings = { retention: { short: 7 }, cors: { allowed_origins: ["https://app.example"] } };
  expect((await t.api.patch("/v1/tenant", settings)).status).toBe(200);
  // A key with traffic of its own, counted in usage; one revoked; a token minted by the tenant's key.
  const used = await newTenant(a.baseUrl, a.adminKey, { tenant: t.tenant });
  before.usageKeyId = used.keyId;
  for (let i = 0; i < 5; i++) await used.api.get("/v1/memories?limit=2");
  await used.api.get("/v1/memories/00000000-0000-4000-8000-000000000000");
  const revoked = await newTenant(a.baseUrl, a.adminKey, { tenant: t.tenant });
  expect((await t.api.delete(`/v1/keys/${revoked.keyId}`)).status).toBe(200);
  before.revokedKey = revoked.key;
  const token = await t.api.post("/v1/tokens", { scopes: ["memories:read"] });
  expect(token.status).toBe(200);
  before.token = token.body.data.token;

  const list = (await t.api.get("/v1/memories?limit=100")).body.data as { id: string }[];
  before.paths = [
    "/v1/memories?limit=100",
    "/v1/tags",
    "/v1/entities",
    "/v1/tenant",
    ...list.map((m) => `/v1/memories/${m.id}`),
  ];
  for (const q of QUERIES) before.searches.set(q, await search(a.baseUrl, t.key, q));
  // Usage reaches Redis in batches (gateway → USAGE stream → keys service): wait until it is all counted.
  let last = "";
  before.usage = await eventually(
    async () => {
      const now = JSON.stringify(await usageOf(a.baseUrl, t.key, used.keyId));
      const settled = now === last && JSON.parse(now).totals.requests === 6;
      last = now;
      await Bun.sleep(500);
      return settled && JSON.parse(now);
    },
    20_000,
    "usage counted",
  );
  before.storage = (await t.api.get("/v1/usage")).body.data.storage;
  for (const p of before.paths) before.bodies.set(p, (await rawGet(a.baseUrl, t.key, p)).text);

  const w = await newTenant(a.baseUrl, a.adminKey);
  writer.key = w.key;
  writer.hook = (await register(w.api, hooks.url(), ["*"])).id;
}

beforeAll(async () => {
  a = await drillStack(dirA);
  writeStackRecord(
    {
      pid: process.pid,
      started_at: new Date().toISOString(),
      data_dir: dirA,
      base_url: a.baseUrl,
      redis_url: a.redisUrl,
      redis_cluster: false,
      nats_url: a.natsUrl,
      admin_key_file: a.adminKeyFile,
    },
    join(dirA, "stacks"),
  );
  await fill();
}, 90_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  for (const dir of [dirA, dirB, join(backup, "..")]) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("npm run backup while writes go on, npm run restore into a new stack", () => {
  test("the backup: a manifest with versions, sizes and checksums, taken while a client writes", async () => {
    const api = apiClient(a.baseUrl, writer.key);
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing; i++) {
        const res = await api.post("/v1/memories", { content: `written during the backup ${i}` });
        if (res.status === 200) writer.acked.push({ id: res.body.data.id, at: Date.now() });
      }
    })();
    await Bun.sleep(1000);
    const made = await runScript("scripts/backup/backup.ts", ["--out", backup], {
      DATA_DIR: dirA,
      BACKUP_DRILL_EVENTS_DELAY_MS: "1500",
    });
    writing = false;
    await writes;
    expect({ code: made.code, err: made.err }).toEqual({ code: 0, err: "" });
    const manifest = JSON.parse(readFileSync(join(backup, "manifest.json"), "utf8"));
    point = Date.parse(manifest.point);
    expect(manifest.versions).toMatchObject({
      app: expect.any(String),
      redis: expect.stringMatching(/^8\./),
      nats: expect.stringMatching(/^2\./),
    });
    expect(manifest.files.map((f: { path: string }) => f.path).sort()).toEqual(
      ["admin-key", "nats/EVENTS.snapshot", "nats/USAGE.snapshot", "redis/dump.rdb"].sort(),
    );
    for (const f of manifest.files)
      expect(f).toMatchObject({ bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(Object.keys(manifest.streams.EVENTS.ack_floors_at_point).sort()).toEqual([
      "search-indexer",
      "webhooks-dispatcher",
    ]);
    // Writes went on before and after the point, and none failed.
    expect(writer.acked.filter((w) => w.at < point).length).toBeGreaterThan(5);
    expect(writer.acked.filter((w) => w.at > point).length).toBeGreaterThan(0);
    // The writer's memories as the first stack answers them, then that stack goes away.
    for (const w of writer.acked)
      before.bodies.set(`w:${w.id}`, (await rawGet(a.baseUrl, writer.key, `/v1/memories/${w.id}`)).text);
    // Redis' disk elsewhere (a container, a pod): the RDB fetched by a command, `{}` where to put it.
    const fetched = join(backup, "..", "fetched");
    const rdbCommand = `cp ${join(dirA, "redis", "dump.rdb")} {}`;
    const other = await runScript("scripts/backup/backup.ts", ["--out", fetched, "--rdb-command", rdbCommand], {
      DATA_DIR: dirA,
    });
    expect({ code: other.code, err: other.err }).toEqual({ code: 0, err: "" });
    expect(readFileSync(join(fetched, "manifest.json"), "utf8")).toContain('"path": "redis/dump.rdb"');
    await a.stop();
  }, 60_000);

  test("a restore refuses, in one line, a running stack's DATA_DIR and a damaged backup", async () => {
    const running = newDataDir("drill-running");
    writeStackRecord(
      {
        pid: process.pid,
        started_at: "",
        data_dir: running,
        base_url: "",
        redis_url: "",
        redis_cluster: false,
        nats_url: "",
        admin_key_file: null,
      },
      join(running, "stacks"),
    );
    const refused = await runScript("scripts/backup/restore.ts", [backup], { DATA_DIR: running });
    expect({ code: refused.code, lines: refused.err.trim().split("\n") }).toEqual({
      code: 1,
      lines: [expect.stringMatching(/^The stack of DATA_DIR=.* is running \(pid \d+\): stop it/)],
    });
    const damaged = join(running, "damaged");
    cpSync(backup, damaged, { recursive: true });
    appendFileSync(join(damaged, "nats/USAGE.snapshot"), "x");
    const bad = await runScript("scripts/backup/restore.ts", [damaged], { DATA_DIR: dirB });
    expect({ code: bad.code, lines: bad.err.trim().split("\n") }).toEqual({
      code: 1,
      lines: [expect.stringMatching(/is damaged: nats\/USAGE\.snapshot has \d+ bytes.*nothing was changed/)],
    });
    expect(existsSync(join(dirB, "redis"))).toBe(false);
    rmSync(running, { recursive: true, force: true });
  });

  test("restored on other ports: every write acknowledged before the point, byte for byte", async () => {
    const restored = await runScript("scripts/backup/restore.ts", [backup], { DATA_DIR: dirB });
    expect({ code: restored.code, err: restored.err }).toEqual({ code: 0, err: "" });
    upAt = Date.now();
    receiverUp = true;
    b = await drillStack(dirB);
    expect(b.baseUrl).not.toBe(a.baseUrl);
    // The same admin key: the backup carries it.
    expect(b.adminKey).toBe(a.adminKey);
    for (const p of before.paths) {
      expect({ p, ...(await rawGet(b.baseUrl, before.key, p)) }).toEqual({
        p,
        status: 200,
        text: before.bodies.get(p)!,
      });
    }
    for (const w of writer.acked) {
      const got = await rawGet(b.baseUrl, writer.key, `/v1/memories/${w.id}`);
      if (w.at < point)
        expect({ id: w.id, text: got.text }).toEqual({ id: w.id, text: before.bodies.get(`w:${w.id}`)! });
      else expect([200, 404]).toContain(got.status);
    }
  }, 90_000);

  test("search answers the same; usage and quotas are the same, and stay so", async () => {
    for (const q of QUERIES) {
      await eventually(
        async () => JSON.stringify(await search(b!.baseUrl, before.key, q)) === JSON.stringify(before.searches.get(q)),
        15_000,
        `search "${q}" as before`,
      );
    }
    expect(await usageOf(b!.baseUrl, before.key, before.usageKeyId)).toEqual(before.usage as any);
    expect((await apiClient(b!.baseUrl, before.key).get("/v1/usage")).body.data.storage).toEqual(before.storage);
    // Anything the USAGE stream still held at the point is counted once, not twice.
    await Bun.sleep(3000);
    expect(await usageOf(b!.baseUrl, before.key, before.usageKeyId)).toEqual(before.usage as any);
  }, 60_000);

  test("keys: the revoked one stays revoked; the token minted before works", async () => {
    expect((await apiClient(b!.baseUrl, before.revokedKey).get("/v1/memories")).status).toBe(401);
    expect((await apiClient(b!.baseUrl, before.token).get("/v1/memories?limit=1")).status).toBe(200);
  });

  test("webhooks resume: each event of a write before the point delivered once, none of a write after it", async () => {
    const early = writer.acked.filter((w) => w.at < point).map((w) => w.id);
    // Every request since the receiver came up came from the restored stack and was answered 200.
    const answered = () => hooks.got.filter((r) => r.at >= upAt && r.event.data?.memory_id);
    await eventually(
      () => {
        const got = new Set(answered().map((r) => r.event.data.memory_id as string));
        return early.every((id) => got.has(id));
      },
      30_000,
      "every early write's event delivered",
    );
    // Let retries and replays run out, then count.
    await Bun.sleep(3000);
    const times = new Map<string, number>();
    for (const r of answered()) times.set(r.headers["webhook-id"]!, (times.get(r.headers["webhook-id"]!) ?? 0) + 1);
    expect([...times].filter(([, n]) => n > 1)).toEqual([]);
    // And nothing is announced of a write the restored stack does not hold (one that came after the point).
    for (const id of new Set(answered().map((r) => r.event.data.memory_id as string))) {
      expect({ id, status: (await rawGet(b!.baseUrl, writer.key, `/v1/memories/${id}`)).status }).toEqual({
        id,
        status: 200,
      });
    }
    const listed = await apiClient(b!.baseUrl, writer.key).get(`/v1/webhooks/${writer.hook}/deliveries?limit=100`);
    const ids = (listed.body.data as { id: string }[]).map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);
});
