import type { RedisClient } from "../kit/redis-client";
import { primariesOf } from "../kit/redis-scan";
import { LAYOUT_KEYS } from "./keys";
import { CURRENT_LAYOUT, UNVERSIONED_LAYOUT } from "./layout";

/** The fields of `layout:migration`. */
export const PROGRESS = {
  step: "step",
  from: "from",
  to: "to",
  cursor: "cursor",
  seen: "seen",
  changed: "changed",
  startedMs: "started_ms",
  updatedMs: "updated_ms",
} as const;

export interface Progress {
  step: string;
  from: number;
  to: number;
  /** Where the step's next batch starts ("0": at the beginning). */
  cursor: string;
  seen: number;
  changed: number;
  startedMs: number;
  updatedMs: number;
}

/** The only code that runs Redis commands on the layout keys (keys.ts). */
export function createLayoutStore(redis: RedisClient) {
  return {
    /** The keyspace's layout, or null when it has none recorded. */
    async version(): Promise<number | null> {
      const v = await redis.get(LAYOUT_KEYS.version);
      return v === null ? null : Number(v);
    },

    /**
     * The keyspace's layout, recorded first when it has none: the current one for an empty keyspace,
     * UNVERSIONED_LAYOUT for data written before layouts were versioned. Processes starting side by side may
     * race: the first SET NX wins, and a fresh keyspace taken for unversioned costs one migration pass that
     * changes nothing.
     */
    async versionOrInit(): Promise<number> {
      const known = await this.version();
      if (known !== null) return known;
      const sizes = await Promise.all((await primariesOf(redis)).map((node) => node.dbsize()));
      const empty = sizes.every((n) => n === 0);
      await redis.set(LAYOUT_KEYS.version, String(empty ? CURRENT_LAYOUT : UNVERSIONED_LAYOUT), "NX");
      return (await this.version()) ?? UNVERSIONED_LAYOUT;
    },

    async setVersion(layout: number): Promise<void> {
      await redis.set(LAYOUT_KEYS.version, String(layout));
    },

    async progress(): Promise<Progress | null> {
      const h = await redis.hgetall(LAYOUT_KEYS.migration);
      if (!h[PROGRESS.step]) return null;
      const n = (f: string) => Number(h[f] ?? 0);
      return {
        step: h[PROGRESS.step]!,
        from: n(PROGRESS.from),
        to: n(PROGRESS.to),
        cursor: h[PROGRESS.cursor] ?? "0",
        seen: n(PROGRESS.seen),
        changed: n(PROGRESS.changed),
        startedMs: n(PROGRESS.startedMs),
        updatedMs: n(PROGRESS.updatedMs),
      };
    },

    async saveProgress(p: Progress): Promise<void> {
      await redis.hset(LAYOUT_KEYS.migration, {
        [PROGRESS.step]: p.step,
        [PROGRESS.from]: p.from,
        [PROGRESS.to]: p.to,
        [PROGRESS.cursor]: p.cursor,
        [PROGRESS.seen]: p.seen,
        [PROGRESS.changed]: p.changed,
        [PROGRESS.startedMs]: p.startedMs,
        [PROGRESS.updatedMs]: p.updatedMs,
      });
    },

    /** The step is done: the keyspace is at its target layout, and no migration is under way. */
    async complete(layout: number): Promise<void> {
      await redis.set(LAYOUT_KEYS.version, String(layout));
      await redis.del(LAYOUT_KEYS.migration);
    },

    /**
     * The runner's lease. Taking, renewing and releasing it are plain commands (GET, then SET XX or DEL), not one
     * atomic step: the lease only spares a second runner duplicate work, since every step is idempotent, so the
     * rare race between the GET and the write costs work, never data.
     */
    async lock(owner: string, leaseMs: number): Promise<boolean> {
      return (await redis.set(LAYOUT_KEYS.lock, owner, "PX", leaseMs, "NX")) === "OK";
    },
    async renew(owner: string, leaseMs: number): Promise<boolean> {
      if ((await redis.get(LAYOUT_KEYS.lock)) !== owner) return false;
      return (await redis.set(LAYOUT_KEYS.lock, owner, "PX", leaseMs, "XX")) === "OK";
    },
    async unlock(owner: string): Promise<void> {
      if ((await redis.get(LAYOUT_KEYS.lock)) === owner) await redis.del(LAYOUT_KEYS.lock);
    },
    /** Whether some runner holds the lease now. */
    async locked(): Promise<boolean> {
      return (await redis.exists(LAYOUT_KEYS.lock)) === 1;
    },
  };
}

export type LayoutStore = ReturnType<typeof createLayoutStore>;
