import type { Caller } from "../../contract/op";
import type { HandlerContext } from "../../kit/handler";
import { errorFields, type Logger } from "../../kit/log";
import type { Space } from "../../kit/space";
import type { ChangePublisher } from "../../memory-data/publisher";
import type { MemoryStore } from "../store";
import { removalChanges } from "../memory";

export interface SweeperOptions {
  /** Pause between ticks. */
  intervalMs: number;
  /** Spaces claimed per tick. */
  spacesPerTick: number;
  /** Memories purged per space per tick (a cascading subtree goes whole). */
  purgePerSpace: number;
  /** How long a claimed space is left to this replica: one that dies leaves it due again after this. */
  leaseMs: number;
  /** Keys one tick of the walk over the keyspace reads (see `startSweeper`); 0: no walk. */
  scanCount: number;
}

export const SWEEPER_DEFAULTS: SweeperOptions = {
  intervalMs: 1000,
  spacesPerTick: 20,
  purgePerSpace: 200,
  leaseMs: 30_000,
  scanCount: 1000,
};

/** Who the sweeper's changes come from: the space's own identity, as a rebuild reads with its own. */
const sweeperCaller = (s: Space): Caller => ({
  tenant: s.tenant,
  env: s.env,
  keyId: "expiry-sweeper",
  scopes: ["memories:write"],
});

export interface Sweeper {
  /** One tick: due spaces claimed, purged, released; then one step of the walk. Returns memories purged. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The expiry sweeper of the memories service, in every replica. A write that gives a memory an expiry
 * registers its space in the registry (due-register.lua); each tick claims up to `spacesPerTick` spaces
 * whose look is due, with a lease so replicas never work on one space together, purges up to
 * `purgePerSpace` expired memories in each (purge.lua: one atomic step per space), publishes their
 * `deleted` events (reason `expired`) and the changes to the memories they touched, and releases each
 * space with its next expiry. A purge is idempotent and atomic, so a replica dying anywhere loses nothing:
 * its claims come due again when their lease ends. Work per tick is bounded by the three numbers.
 *
 * A registration happens after its write commits: a replica killed in between leaves that space
 * unregistered. So each replica also walks the keyspace once as it starts (`scanCount` keys a tick)
 * and registers every space holding memories that expire.
 */
export function startSweeper(
  deps: { store: MemoryStore; changes: ChangePublisher; log: Logger },
  opts: Partial<SweeperOptions> = {},
): Sweeper {
  const o = { ...SWEEPER_DEFAULTS, ...opts };
  const { store, changes, log } = deps;
  let walk: string | null = o.scanCount > 0 ? "0" : null;

  async function sweep(space: Space, gen: string): Promise<number> {
    const purge = await store.purgeExpired(space, o.purgePerSpace);
    const ctx: HandlerContext = { caller: sweeperCaller(space), requestId: `sweep-${crypto.randomUUID()}`, log };
    await changes.committed(ctx, removalChanges(purge, "expired"));
    await store.releaseDue(space, gen, purge.more ? 0 : purge.next);
    return purge.deleted.length;
  }

  async function step(): Promise<void> {
    if (walk === null) return;
    const { cursor, found } = await store.expiringSpaces(walk, o.scanCount);
    for (const [space, at] of found) await store.registerExpiry(space, at);
    walk = cursor === "0" ? null : cursor;
  }

  async function tick(): Promise<number> {
    let purged = 0;
    for (const { space, gen } of await store.claimDue(o.spacesPerTick, o.leaseMs)) {
      try {
        purged += await sweep(space, gen);
      } catch (err) {
        // Its claim stays: the space comes due again when the lease ends.
        log.error("expiry purge failed", { tenant: space.tenant, env: space.env, ...errorFields(err) });
      }
    }
    await step();
    return purged;
  }

  let stopped = false;
  let wake: (() => void) | null = null;
  const running = (async () => {
    while (!stopped) {
      await tick().catch((err) => log.error("expiry sweep failed", errorFields(err)));
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, o.intervalMs);
      });
    }
  })();

  return {
    tick,
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
