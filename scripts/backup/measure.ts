import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "nats";
import { writeStackRecord } from "../../services/kit/local-stack";
import { startStack } from "../stack/launch";

/**
 * The figures of docs/operations.md: backup and restore time and size for N memories (default 20,000):
 *   node scripts/bootstrap.mjs scripts/backup/measure.ts [N]
 * Embeddings come from a stand-in OpenAI-compatible endpoint in this process (512 dimensions, as the offline
 * model's), so the index holds vectors of the real size without the model's CPU time.
 */
const N = Number(process.argv[2] ?? 20_000);
const BATCH = 500;
const ROOT = join(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "backup-measure-"));

const embeddings = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const { input } = (await req.json()) as { input: string[] };
    const data = input.map((text, index) => {
      let seed = Number(Bun.hash(text) % 2147483647n) || 1;
      const v = Array.from({ length: 512 }, () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2 - 1);
      const norm = Math.hypot(...v);
      return { index, embedding: v.map((x) => Math.round((x / norm) * 1e4) / 1e4) };
    });
    return Response.json({ data });
  },
});
const env = {
  LOG_LEVEL: "warn",
  RATE_LIMIT_PER_MINUTE: "1000000",
  EMBEDDINGS_URL: `http://127.0.0.1:${embeddings.port}/v1`,
  EMBEDDINGS_MODEL: "stand-in",
  EMBEDDINGS_DIMENSIONS: "512",
};
const words = "the a memory user said likes travel coffee meeting project deadline Porto Lisbon book".split(" ");
const sentence = (i: number) =>
  `${i}: ${Array.from({ length: 30 }, (_, k) => words[(i * 7 + k * 13) % words.length]).join(" ")}.`;

const du = (path: string) => Number(Bun.spawnSync(["du", "-sb", path]).stdout.toString().split("\t")[0]);
const run = async (script: string, args: string[], extra: Record<string, string>) => {
  const t0 = performance.now();
  const p = Bun.spawnSync([process.execPath, script, ...args], { cwd: ROOT, env: { ...process.env, ...extra } });
  if (p.exitCode !== 0) throw new Error(`${script}: ${p.stderr.toString()}`);
  return { ms: performance.now() - t0, out: p.stdout.toString() };
};

const dirA = join(work, "a");
const a = await startStack({ dataDir: dirA, env });
try {
  const key = a.adminKey;
  const post = (items: unknown[]) =>
    fetch(`${a.baseUrl}/v1/memories/batch`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ items }),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`batch: ${r.status} ${await r.text()}`);
    });
  const t0 = performance.now();
  for (let i = 0; i < N; i += BATCH * 2) {
    const batch = (from: number) =>
      Array.from({ length: Math.max(0, Math.min(BATCH, N - from)) }, (_, k) => ({ content: sentence(from + k) }));
    await Promise.all([batch(i), batch(i + BATCH)].filter((b) => b.length > 0).map(post));
  }
  const nc = await connect({ servers: a.natsUrl });
  const jsm = await nc.jetstreamManager();
  for (;;) {
    const c = await jsm.consumers.info("EVENTS", "search-indexer");
    if (c.num_pending === 0 && c.num_ack_pending === 0) break;
    await Bun.sleep(500);
  }
  await nc.close();
  console.log(`ingest ${N} memories (indexed): ${Math.round(performance.now() - t0)} ms`);
  console.log(`DATA_DIR: redis ${du(join(dirA, "redis"))} B, nats ${du(join(dirA, "nats"))} B`);

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
    join(work, "stacks"),
  );
  const out = join(work, "backup");
  const b = await run("scripts/backup/backup.ts", ["--out", out], { DATA_DIR: dirA });
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  const sizes = Object.fromEntries(manifest.files.map((f: { path: string; bytes: number }) => [f.path, f.bytes]));
  console.log(`backup: ${Math.round(b.ms)} ms (writes paused ${manifest.timings_ms.writes_paused} ms)`, sizes);
  await a.stop();

  const dirB = join(work, "b");
  const r = await run("scripts/backup/restore.ts", [out], { DATA_DIR: dirB });
  const t1 = performance.now();
  const restored = await startStack({ dataDir: dirB, env });
  const ready = performance.now() - t1;
  const total = await fetch(`${restored.baseUrl}/v1/memories?limit=1`, { headers: { Authorization: `Bearer ${key}` } })
    .then((res) => res.json() as Promise<{ meta: { total: number } }>)
    .then((body) => body.meta.total);
  await restored.stop();
  console.log(`restore: ${Math.round(r.ms)} ms, then the stack ready in ${Math.round(ready)} ms; ${total} memories`);
} finally {
  await a.stop().catch(() => undefined);
  embeddings.stop(true);
  rmSync(work, { recursive: true, force: true });
}
