import type { NatsConnection } from "nats";
import { errorFields, type Logger } from "../kit/log";
import { CURRENT_LAYOUT } from "./layout";
import type { LayoutView } from "./layout-view";
import { ownersFrom } from "./registry";
import { runMigrations } from "./runner";
import type { MigrationStep } from "./step";
import type { LayoutStore } from "./store";

/** How often a service looks again whether a pending migration may run. */
const CHECK_MS = 5000;
/** How long `$SRV.INFO` waits for the replicas' answers. */
const INFO_WAIT_MS = 500;

/** The metadata every service replica declares in `$SRV.INFO` (kit/runtime.ts): the layout its code writes. */
export const LAYOUT_METADATA = "layout";
export const serviceMetadata = () => ({ [LAYOUT_METADATA]: String(CURRENT_LAYOUT) });

/**
 * Service replicas that answer `$SRV.INFO` with an older layout, or without one (a release before layouts were
 * versioned). A migration waits for them to stop: their code writes, and rebuilds to, the old form.
 */
export async function olderReplicas(nc: NatsConnection): Promise<string[]> {
  const older: string[] = [];
  const replies = await nc.requestMany("$SRV.INFO", undefined, { maxWait: INFO_WAIT_MS });
  for await (const m of replies) {
    const info = m.json() as { name?: string; id?: string; metadata?: Record<string, string> };
    const layout = Number(info.metadata?.[LAYOUT_METADATA] ?? 0);
    if (layout < CURRENT_LAYOUT) older.push(`${info.name}/${info.id}`);
  }
  return older;
}

export interface AutoMigration {
  nc: NatsConnection;
  store: LayoutStore;
  /** The steps this service implements. */
  steps: MigrationStep[];
  /** This service's name: it runs the pending steps it owns (registry.ts). */
  owner: string;
  settings: { MIGRATION_AUTO: boolean; MIGRATION_BATCH_SIZE: number; MIGRATION_PAUSE_MS: number };
  view: LayoutView;
  log: Logger;
}

/**
 * A service's own run of the migrations it owns, when it is safe: every service replica answering declares the
 * current layout (the old replicas of a rolling upgrade are gone), and no other runner holds the lease. Checked
 * at start and every CHECK_MS until the keyspace is current. Stopping pauses between batches; the cursor stays.
 */
export function startAutoMigration(deps: AutoMigration): { stop(): Promise<void> } {
  const { store, log, settings } = deps;
  let stopped = false;
  let waitingOn = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();

  const tick = async (): Promise<boolean> => {
    const layout = await store.versionOrInit();
    if (layout >= CURRENT_LAYOUT) return true;
    const first = ownersFrom(layout)[0];
    const older = first === deps.owner ? await olderReplicas(deps.nc) : [];
    const reason = first !== deps.owner ? `its next step is ${first}'s` : older.length > 0 ? "older replicas" : "";
    if (reason) {
      if (reason !== waitingOn) log.info("layout migration waits", { layout, reason, replicas: older.slice(0, 10) });
      waitingOn = reason;
      return false;
    }
    const result = await runMigrations(store, deps.steps, {
      batchSize: settings.MIGRATION_BATCH_SIZE,
      pauseMs: settings.MIGRATION_PAUSE_MS,
      log,
      stopped: () => stopped,
    });
    await deps.view.refresh();
    return result.status === "migrated" || result.status === "current";
  };

  const loop = () => {
    if (stopped) return;
    running = tick()
      .catch((err) => {
        log.warn("layout migration failed; will retry", errorFields(err));
        return false;
      })
      .then((done) => {
        if (!done && !stopped) timer = setTimeout(loop, CHECK_MS);
      });
  };
  if (settings.MIGRATION_AUTO) loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
