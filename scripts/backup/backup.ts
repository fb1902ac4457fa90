import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import Redis from "ioredis";
import { connect } from "nats";
import { STREAMS } from "../../services/contract/streams";
import { findStack } from "../../services/kit/local-stack";
import { OperatorError, operatorArgs, runOperatorCommand, stackTarget } from "../../services/kit/operator";
import { lastSeq, settledFloors, snapshotStream, type StreamSnapshot } from "./jetstream-snapshot";
import { FORMAT, fileEntry, MANIFEST, type Manifest } from "./manifest";
import { persistence, rdbPath, startSave, waitNoChild, waitSaved, withWritesPaused } from "./redis-snapshot";

/**
 * `npm run backup -- --out DIR`: a backup of a running stack, taken while it serves.
 *
 * The point: Redis' writes are paused (reads go on; writers wait, nothing fails) for as long as it takes to
 *  1. let the durable consumers' acks already on their way land, and note EVENTS' consumers' ack floors and its
 *     last sequence,
 *  2. fork Redis' snapshot (BGSAVE),
 *  3. snapshot USAGE with its consumer: its aggregator adds counts with HINCRBY, which a replay would add twice,
 *     so its position must be exactly the one that matches Redis'; paused, it cannot move.
 * Then, writes flowing again, EVENTS is snapshotted (a stream of days of events may take seconds), the RDB
 * copied and the manifest written. A restore drops the events published after the point (their writes are not in
 * the RDB) and moves EVENTS' consumers back to the floors of step 1: what they acknowledged after the point is
 * delivered again, and both readers (search indexer, webhooks dispatcher) apply an event twice as once (by
 * memory version; by delivery id).
 *
 * Where: the stack `npm start` runs (DATA_DIR or the checkout's latest), or REDIS_URL and NATS_URL. The RDB is
 * read where Redis writes it (`CONFIG GET dir`), or from --redis-dir when Redis' disk is mounted elsewhere here,
 * or fetched by --rdb-command (`{}` is where to put it: `docker compose cp redis:/data/dump.rdb {}`,
 * `kubectl cp redis-0:/data/dump.rdb {}`) when it is on another machine.
 */
const usage = 'usage: npm run backup -- --out DIR [--redis-dir DIR | --rdb-command "CMD {}"]';
const { values } = operatorArgs(
  { options: { out: { type: "string" }, "redis-dir": { type: "string" }, "rdb-command": { type: "string" } } },
  usage,
);

await runOperatorCommand(async () => {
  if (!values.out) throw new OperatorError(usage);
  const out = resolve(values.out);
  if (existsSync(out) && readdirSync(out).length > 0)
    throw new OperatorError(`${out} is not empty: name a new directory`);
  const target = stackTarget();
  const { url: redisUrl, cluster } = await target.redis();
  if (cluster) throw new OperatorError("A Redis Cluster is backed up node by node: see docs/operations.md");
  const natsUrl = await target.nats();
  const stack = process.env.REDIS_URL ? null : findStack().running;
  const note = target.choiceNote();
  if (note) process.stderr.write(`${note}\n`);

  const started = Date.now();
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectionName: "backup" });
  await redis.connect();
  const nc = await connect({ servers: natsUrl.split(","), name: "backup" });
  try {
    mkdirSync(join(out, "redis"), { recursive: true });
    mkdirSync(join(out, "nats"), { recursive: true });
    const streams: Manifest["streams"] = {};
    const snap = async (name: string, atPoint: { last: number; floors: Record<string, number> } | null) => {
      const file = `nats/${name}.snapshot`;
      const s: StreamSnapshot = await snapshotStream(nc, name, join(out, file));
      streams[name] = {
        ...s,
        file,
        last_seq_at_point: atPoint?.last ?? null,
        ack_floors_at_point: atPoint?.floors ?? null,
      };
    };

    let savesBefore = await waitNoChild(redis);
    let pausedMs = 0;
    let events = { last: 0, floors: {} as Record<string, number> };
    const point = new Date();
    for (let attempt = 1; ; attempt++) {
      const t0 = Date.now();
      const forked = await withWritesPaused(redis, async () => {
        const floors = await settledFloors(nc, STREAMS.EVENTS.name);
        // Writes are paused: every event of a committed write has been published by now (the settling took
        // a few hundred ms; a write publishes its events as soon as it commits), and no later one can come.
        events = { last: await lastSeq(nc, STREAMS.EVENTS.name), floors };
        point.setTime(Date.now());
        // An AOF rewrite that started since waitNoChild would make BGSAVE refuse: then wait and start over.
        if ((await persistence(redis)).rewrite) return false;
        await startSave(redis);
        await snap(STREAMS.USAGE.name, null);
        return true;
      });
      pausedMs = Date.now() - t0;
      if (forked) break;
      if (attempt === 5) throw new OperatorError("Redis keeps rewriting its AOF: try again later");
      savesBefore = await waitNoChild(redis);
    }
    // The drill widens the window between the point and EVENTS' snapshot, where writes and acks go on, so that
    // what a restore must undo in it (later events, later acks) is always there to undo.
    await Bun.sleep(Number(process.env.BACKUP_DRILL_EVENTS_DELAY_MS ?? 0));
    await snap(STREAMS.EVENTS.name, events);
    await waitSaved(redis, savesBefore);

    await copyRdb(redis, join(out, "redis/dump.rdb"));
    const paths = ["redis/dump.rdb", ...Object.values(streams).map((s) => s.file)];
    if (stack?.admin_key_file && existsSync(stack.admin_key_file)) {
      copyFileSync(stack.admin_key_file, join(out, "admin-key"));
      chmodSync(join(out, "admin-key"), 0o600);
      paths.push("admin-key");
    }
    const redisVersion = /redis_version:(\S+)/.exec((await redis.info("server")) as string)?.[1] ?? "unknown";
    const manifest: Manifest = {
      format: FORMAT,
      point: point.toISOString(),
      finished_at: new Date().toISOString(),
      versions: { app: appVersion(), commit: gitCommit(), redis: redisVersion, nats: nc.info?.version ?? "unknown" },
      source: { data_dir: stack?.data_dir ?? null, redis_url: redactUrl(redisUrl), nats_url: redactUrl(natsUrl) },
      timings_ms: { writes_paused: pausedMs, total: Date.now() - started },
      files: await Promise.all(paths.map((p) => fileEntry(out, p))),
      streams,
    };
    writeFileSync(join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const bytes = manifest.files.reduce((sum, f) => sum + f.bytes, 0);
    process.stdout.write(
      `backup of ${manifest.point} in ${out}: ${manifest.files.length} files, ${bytes} bytes, ` +
        `${manifest.timings_ms.total} ms (writes paused ${pausedMs} ms)\n`,
    );
  } finally {
    redis.disconnect();
    await nc.close();
  }
});

/** Brings the RDB that BGSAVE just wrote to `dest`, from wherever Redis wrote it. */
async function copyRdb(redis: Redis, dest: string): Promise<void> {
  if (values["rdb-command"]) {
    const command = values["rdb-command"].replaceAll("{}", `'${dest.replaceAll("'", "'\\''")}'`);
    const r = Bun.spawnSync(["sh", "-c", command], { stdout: "ignore", stderr: "pipe" });
    if (r.exitCode !== 0 || !existsSync(dest)) {
      throw new OperatorError(`--rdb-command failed (${r.exitCode}): ${r.stderr.toString().trim().split("\n")[0]}`);
    }
    return;
  }
  const written = await rdbPath(redis);
  const rdb = values["redis-dir"] ? join(resolve(values["redis-dir"]), basename(written)) : written;
  if (!existsSync(rdb)) {
    throw new OperatorError(
      `Redis wrote its snapshot to ${rdb}, which is not on this machine: set --redis-dir or --rdb-command`,
    );
  }
  copyFileSync(rdb, dest);
}

function appVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve(import.meta.dir, "../../package.json"), "utf8")) as { version: string };
  return pkg.version;
}

function gitCommit(): string | null {
  const r = Bun.spawnSync(["git", "rev-parse", "HEAD"], { cwd: import.meta.dir, stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : null;
}

/** A URL without its password: the manifest travels with the backup. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/g, "//$1:***@");
}
