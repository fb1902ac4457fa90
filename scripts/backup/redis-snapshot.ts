import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Redis from "ioredis";

/**
 * Redis' part of a backup: one RDB file made by BGSAVE, and its way back into an AOF-only Redis.
 *
 * BGSAVE, not a copy of the AOF directory: the RDB is the dataset at the instant of the fork, so writes need to
 * wait only for the fork (milliseconds), while a copy of `appendonlydir/` is consistent only if nothing is
 * written and no rewrite swaps its files during the whole copy. The RDB is also the compact form (the AOF's
 * `incr` part grows until the next rewrite).
 */

/** How long Redis itself keeps writes paused if this process dies between CLIENT PAUSE and CLIENT UNPAUSE. */
export const PAUSE_SAFETY_MS = 15_000;

const field = (info: string, name: string) => new RegExp(`^${name}:(.*)\\r?$`, "m").exec(info)?.[1]?.trim() ?? "";

export async function persistence(redis: Redis): Promise<{ saves: number; bgsave: boolean; rewrite: boolean }> {
  const info = (await redis.info("persistence")) as string;
  return {
    saves: Number(field(info, "rdb_saves")),
    bgsave: field(info, "rdb_bgsave_in_progress") === "1",
    rewrite: field(info, "aof_rewrite_in_progress") === "1" || field(info, "aof_rewrite_scheduled") === "1",
  };
}

/** Waits until no child process (an RDB save or an AOF rewrite) runs, since BGSAVE refuses to start beside one. */
export async function waitNoChild(redis: Redis, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const p = await persistence(redis);
    if (!p.bgsave && !p.rewrite) return p.saves;
    if (Date.now() > deadline) throw new Error("Redis is still saving or rewriting its AOF: try again later");
    await Bun.sleep(100);
  }
}

/**
 * Pauses Redis' writes (reads go on), runs `atPoint` (the moment the backup stands for) and unpauses. While paused,
 * clients that write wait; nothing fails. If this process dies, Redis unpauses by itself after PAUSE_SAFETY_MS.
 */
export async function withWritesPaused<T>(redis: Redis, atPoint: () => Promise<T>): Promise<T> {
  await redis.call("CLIENT", "PAUSE", String(PAUSE_SAFETY_MS), "WRITE");
  try {
    return await atPoint();
  } finally {
    await redis.call("CLIENT", "UNPAUSE");
  }
}

/** Starts BGSAVE: the fork, hence the snapshot's content, happens before the reply. */
export async function startSave(redis: Redis): Promise<void> {
  const reply = String(await redis.call("BGSAVE"));
  if (!/started/i.test(reply)) throw new Error(`BGSAVE: ${reply}`);
}

/** Waits for the save started after `savesBefore` saves to end, and fails if it did not succeed. */
export async function waitSaved(redis: Redis, savesBefore: number, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = (await redis.info("persistence")) as string;
    if (field(info, "rdb_bgsave_in_progress") === "0" && Number(field(info, "rdb_saves")) > savesBefore) {
      const status = field(info, "rdb_last_bgsave_status");
      if (status !== "ok") throw new Error(`Redis' BGSAVE failed (rdb_last_bgsave_status ${status}): see its log`);
      return;
    }
    if (Date.now() > deadline) throw new Error("Redis' BGSAVE did not finish in time");
    await Bun.sleep(100);
  }
}

/** Where Redis writes its RDB file, as Redis says (a path on Redis' host). */
export async function rdbPath(redis: Redis): Promise<string> {
  const [, dir] = (await redis.call("CONFIG", "GET", "dir")) as string[];
  const [, file] = (await redis.call("CONFIG", "GET", "dbfilename")) as string[];
  return join(dir!, file!);
}

/**
 * Makes `redisDir/appendonlydir` hold the RDB as its base and an empty increment: an AOF-only Redis started on
 * `redisDir` loads exactly the RDB's dataset, then appends to the empty increment. The manifest is Redis 7+'s
 * multi-part AOF format (the one Redis itself writes after a rewrite, less the optional offsets).
 */
export function rdbToAofDir(rdb: string, redisDir: string): void {
  const dir = join(redisDir, "appendonlydir");
  mkdirSync(dir, { recursive: true });
  copyFileSync(rdb, join(dir, "appendonly.aof.1.base.rdb"));
  writeFileSync(join(dir, "appendonly.aof.1.incr.aof"), "");
  writeFileSync(
    join(dir, "appendonly.aof.manifest"),
    "file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n",
  );
}
