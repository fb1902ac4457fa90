import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis, { Cluster } from "ioredis";
import { freePort, startRedis, type RedisProcess } from "../../scripts/stack/infra";
import { connectRedis, redisReady } from "./connect";
import { createLogger } from "./log";
import { defineLibrary } from "./redis-functions";
import { scanKeys } from "./redis-scan";

/**
 * The kit on a real Redis Cluster of two primaries: a library lives on each primary, so the loader has
 * to reach both, or an FCALL routed to the other shard fails; a SCAN answers for one node, so scanKeys
 * asks each; connectRedis's Cluster client reaches every shard.
 */
const library = await defineLibrary({
  name: "fixture",
  dir: new URL("./redis-functions.fixture/", import.meta.url),
  functions: { set: "write" },
});
const dirs: string[] = [];
const nodes: { server: RedisProcess; busPort: number }[] = [];
const clients: Redis[] = [];
let cluster: Cluster;

async function node(): Promise<Redis> {
  const dataDir = mkdtempSync(join(tmpdir(), "functions-cluster-"));
  dirs.push(dataDir);
  const busPort = await freePort();
  const args = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-port", String(busPort)];
  const server = await startRedis({ dataDir, args });
  nodes.push({ server, busPort });
  const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  const [a, b] = [await node(), await node()];
  await a.call("CLUSTER", "ADDSLOTSRANGE", 0, 8191);
  await b.call("CLUSTER", "ADDSLOTSRANGE", 8192, 16383);
  await a.call("CLUSTER", "MEET", "127.0.0.1", nodes[1]!.server.port, nodes[1]!.busPort);
  for (const c of [a, b]) {
    while (!/cluster_state:ok/.test(String(await c.call("CLUSTER", "INFO")))) await Bun.sleep(100);
  }
  cluster = new Cluster([{ host: "127.0.0.1", port: nodes[0]!.server.port }], {
    redisOptions: { maxRetriesPerRequest: 1 },
  });
}, 30_000);

afterAll(async () => {
  cluster?.disconnect();
  for (const c of clients) c.disconnect();
  for (const n of nodes) await n.server.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const loadedOn = async (c: Redis) =>
  ((await c.call("FUNCTION", "LIST")) as unknown[][]).map((l) => l[1]).includes(library.name);

test("the first call loads the library on every primary: calls to either shard succeed", async () => {
  const [a, b] = clients as [Redis, Redis];
  expect(await a.call("CLUSTER", "KEYSLOT", "{b}k")).toBeLessThan(8192);
  expect(await a.call("CLUSTER", "KEYSLOT", "{a}k")).toBeGreaterThanOrEqual(8192);
  const call = library.on(cluster);
  expect(await call("set", ["{b}k"], ["1"])).toBe("OK");
  expect([await loadedOn(a), await loadedOn(b)]).toEqual([true, true]);
  expect(await call("set", ["{a}k"], ["2"])).toBe("OK");
  expect([await a.get("{b}k"), await b.get("{a}k")]).toEqual(["1", "2"]);
});

test("a primary that lost the library (a shard added, or restarted empty) gets it again", async () => {
  const b = clients[1]!;
  await b.call("FUNCTION", "FLUSH");
  expect(await library.on(cluster)("set", ["{a}k"], ["3"])).toBe("OK");
  expect(await loadedOn(b)).toBe(true);
});

test("scanKeys finds the keys of every primary; connectRedis's Cluster client writes to both shards", async () => {
  const log = createLogger({}, "error");
  const seed = `redis://127.0.0.1:${nodes[0]!.server.port}`;
  const client = connectRedis(seed, log, "scan-test", { cluster: true });
  try {
    await redisReady(client, log, 10_000);
    await Promise.all(["{a}scan", "{b}scan"].map((k) => client.set(k, "1")));
    const found: string[] = [];
    for await (const keys of scanKeys(client, "{?}scan")) found.push(...keys);
    expect(found.sort()).toEqual(["{a}scan", "{b}scan"]);
    expect([await clients[0]!.get("{b}scan"), await clients[1]!.get("{a}scan")]).toEqual(["1", "1"]);
  } finally {
    client.disconnect();
  }
});
