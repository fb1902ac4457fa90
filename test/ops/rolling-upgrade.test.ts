import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Redis from "ioredis";
import type { Child, ServiceName, Stack } from "../../scripts/stack/launch";
import { apiClient, newTenant, type ApiClient } from "../api";
import { newDataDir } from "./backup-helpers";
import {
  gauge,
  newGateway,
  newService,
  previousReleaseCommit,
  startOldStack,
  worktreeOf,
} from "./rolling-upgrade-helpers";

/**
 * A rolling upgrade across a layout change, with the release before running for real (its commit in a git
 * worktree): its stack is filled, then this release's replicas of every service and a gateway start beside the
 * old ones on the same Redis and NATS, while clients create, read and search throughout; then the old replicas
 * stop. Nothing acknowledged may be lost, no answer may be a 5xx, the services migrate the data to the new layout
 * by themselves once the old replicas are gone (not before), and searches find what only the new layout holds:
 * a passage deep in a long memory, which the old layout never embedded.
 */
const SERVICES: ServiceName[] = ["keys", "memories", "tags", "search", "webhooks"];
const ENV = { LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "10000000", MIGRATION_PAUSE_MS: "100" };
const FACT = "Our grandmother's secret lasagna recipe uses nutmeg in the béchamel sauce.";
const PARAPHRASE = "Which spice goes into granny's Italian pasta bake?";
const FILLER = [
  "The harbour office publishes tide tables every Monday morning.",
  "Invoices above the threshold need a second signature from finance.",
  "The community garden rotates its vegetable beds each spring.",
  "Backups of the photo archive are verified once a quarter.",
  "The cycling club meets at the fountain before the Sunday ride.",
];
/** The long memories the clients write, ~3,500 characters of their own (a chunk each ~500). */
const RACKS = Array.from({ length: 60 }, (_, k) => `Rack ${k} in row ${k % 9} holds ${k % 7} switches.`).join(" ");
/** ~40,000 characters with FACT at about character 20,000: past what layout 2 embeds (the first 2,000). */
const longContent = () => {
  let out = "";
  for (let i = 0; out.length < 40_000; i++) {
    if (out.length >= 20_000 && !out.includes(FACT)) out += `${FACT} `;
    out += `${FILLER[i % FILLER.length]} [${i}] `;
  }
  return out;
};

let worktree: Awaited<ReturnType<typeof worktreeOf>>;
let old: Stack;
let redis: Redis;
let logDir: string;
const replicas: Child[] = [];
let gateway: Awaited<ReturnType<typeof newGateway>>;
let tenant: string;
let key: string;
let longId: string;

/** What the clients saw: every answer's status by phase, and each acknowledged create. */
const answers: { phase: string; op: string; status: number; at: number }[] = [];
const acked: { id: string; content: string }[] = [];
let phase = "old";
let gateways: string[] = [];
let running = true;

const vectorSet = () => `s:{${tenant}:live}:v:use-lite-512`;
const searchTop = async (api: ApiClient, query: string) =>
  ((await api.post("/v1/search", { query, limit: 3 })).body.data?.results ?? []) as {
    id: string;
    scores: { lexical: number; semantic: number };
  }[];

/** One client: creates, reads back what was acknowledged, and searches for it, round-robin over the gateways. */
async function client(worker: number): Promise<void> {
  for (let i = 0; running; i++) {
    const base = gateways[(worker + i) % gateways.length]!;
    const api = apiClient(base, key);
    const at = Date.now();
    const record = (op: string, status: number) => answers.push({ phase, op, status, at });
    const kind = i % 3;
    if (kind === 0 || acked.length === 0) {
      // Every fifth a long one, which layout 3 embeds in chunks: the old replicas must still read the index.
      const words = `rolling w${worker} n${i} token${crypto.randomUUID().slice(0, 8)}`;
      // Not the long memory's filler: chunks of the same text embed alike, and a tie would go by id.
      const content = i % 15 === 0 ? `${RACKS} ${words}` : words;
      const res = await api.post("/v1/memories", { content, tier: "long" });
      record("create", res.status);
      if (res.status === 200) acked.push({ id: res.body.data.id, content });
    } else {
      const pick = acked[Math.floor(Math.random() * acked.length)]!;
      if (kind === 1) {
        const res = await api.get(`/v1/memories/${pick.id}`);
        record(res.status === 200 && res.body.data.content !== pick.content ? "read-mismatch" : "read", res.status);
      } else {
        record("search", (await api.post("/v1/search", { query: pick.content.split(" ").pop(), limit: 5 })).status);
      }
    }
  }
}

beforeAll(async () => {
  const commit = await previousReleaseCommit();
  worktree = await worktreeOf(commit);
  const dataDir = newDataDir("rolling");
  logDir = join(dataDir, "logs");
  mkdirSync(logDir, { recursive: true });
  old = await startOldStack(worktree.dir, { dataDir, env: ENV });
  redis = new Redis(old.redisUrl, { maxRetriesPerRequest: 1 });
  const t = await newTenant(old.baseUrl, old.adminKey);
  tenant = t.tenant;
  key = t.key;
  longId = (await t.api.post("/v1/memories", { content: longContent() })).body.data.id;
  for (const content of FILLER) expect((await t.api.post("/v1/memories", { content })).status).toBe(200);
  gateways = [old.baseUrl];
}, 180_000);

afterAll(async () => {
  running = false;
  await Promise.all(replicas.map((r) => r.stop()));
  await gateway?.child.stop();
  await old?.stop();
  redis?.disconnect();
  await worktree?.remove();
}, 120_000);

describe("a rolling upgrade from the release before", () => {
  test("keeps every acknowledged write, answers no 5xx, and migrates once the old replicas stop", async () => {
    const api = apiClient(old.baseUrl, key);
    // The release before writes layout 2 (no layout key): the long memory is one vector, its passage unseen.
    expect(await redis.get("layout:version")).toBeNull();
    expect(Number(await redis.call("VCARD", vectorSet()))).toBe(1 + FILLER.length);
    expect((await searchTop(api, PARAPHRASE))[0]?.id).not.toBe(longId);

    const clients = Array.from({ length: 3 }, (_, w) => client(w));
    await Bun.sleep(2000);
    phase = "mixed";
    const env = { ...old.env, ...ENV };
    for (const name of SERVICES) replicas.push(newService(name, env, logDir));
    gateway = await newGateway(env, logDir);
    gateways = [old.baseUrl, gateway.baseUrl];
    // New tenants while both releases serve: whichever replica marks an index first, the other reads it as it
    // is (this release marks layout 2 until the migration; the release before rebuilds any other).
    for (let i = 0; i < 6; i++) {
      const other = await newTenant(gateway.baseUrl, old.adminKey);
      expect((await other.api.post("/v1/memories", { content: `mixed tenant ${i}` })).status).toBe(200);
      for (let q = 0; q < 4; q++) expect((await other.api.post("/v1/search", { query: "mixed" })).status).toBe(200);
    }
    await Bun.sleep(3000);
    // Old service replicas still answer: the new ones read layout 2 and write its form; nothing migrates yet.
    expect(await gauge(gateway.metricsUrl, "data_layout")).toBe(2);
    expect(await gauge(gateway.metricsUrl, "data_layout_release")).toBe(3);
    expect(await redis.get("layout:version")).toBe("2");

    const oldSearchLog = readFileSync(old.services.search[0]!.logFile, "utf8");
    expect(oldSearchLog).not.toContain('"msg":"index rebuilt"');
    phase = "stopping";
    const codes: number[] = [];
    for (const name of SERVICES) for (const child of old.services[name]) codes.push(await child.stop());
    gateways = [gateway.baseUrl];
    await Bun.sleep(500);
    codes.push(await old.gateway.stop());
    expect(codes.every((c) => c === 0)).toBe(true);

    phase = "new";
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && (await gauge(gateway.metricsUrl, "data_layout")) !== 3) await Bun.sleep(500);
    expect(await redis.get("layout:version")).toBe("3");
    await Bun.sleep(2000);
    running = false;
    await Promise.all(clients);

    const byPhase = (p: string) => answers.filter((a) => a.phase === p).length;
    const counts = ["old", "mixed", "stopping", "new"].map((p) => `${p} ${byPhase(p)}`);
    console.log(`answers: ${counts.join(", ")}`);
    expect(byPhase("mixed")).toBeGreaterThan(20);
    expect(byPhase("new")).toBeGreaterThan(20);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.op === "read-mismatch")).toEqual([]);

    const fresh = apiClient(gateway.baseUrl, key);
    for (const a of acked) {
      const res = await fresh.get(`/v1/memories/${a.id}`);
      expect([res.status, res.body.data?.content]).toEqual([200, a.content]);
    }
    // The short ones: a token in a long memory weighs little in BM25, and the others' meaning is just as close.
    for (const a of acked.filter((m) => m.content.length < 100).slice(-5)) {
      const found = (await fresh.post("/v1/search", { query: a.content.split(" ").pop(), limit: 5 })).body.data;
      expect(found.results.map((r: { id: string }) => r.id)).toContain(a.id);
    }
    // Layout 3: the long memory has a vector per chunk, and its deep passage is found by meaning alone.
    expect(Number(await redis.call("VCARD", vectorSet()))).toBeGreaterThan(acked.length + FILLER.length + 10);
    const [top] = await searchTop(fresh, PARAPHRASE);
    expect(top?.id).toBe(longId);
    expect(top?.scores.lexical).toBe(0);
    const searchLog = readFileSync(join(logDir, "new-search.log"), "utf8");
    expect(searchLog).toContain('"msg":"layout migration done"');
  }, 300_000);

  test("a replica of this release refuses a newer layout: one line, exit 78", async () => {
    await redis.set("layout:version", "4");
    try {
      const child = newService("keys", { ...old.env, ...ENV, LOG_LEVEL: "info" }, logDir);
      expect(await child.proc.exited).toBe(78);
      const lines = readFileSync(child.logFile, "utf8")
        .split("\n")
        .filter((l) => l.includes("newer than"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("layout 4, newer than this release's 3");
    } finally {
      await redis.set("layout:version", "3");
    }
  }, 60_000);
});
