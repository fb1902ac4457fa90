import { Gauge, type Registry } from "prom-client";
import type { RedisClient } from "../../../services/kit/redis-client";
import { CURRENT_LAYOUT } from "../../../services/data-layout/layout";
import { createLayoutStore, type Progress } from "../../../services/data-layout/store";

/** Redis is read at most once per this many ms, however many gauges a scrape collects. */
const FRESH_MS = 1000;

interface LayoutState {
  version: number | null;
  progress: Progress | null;
  running: boolean;
}

/**
 * The stored data's layout and its migration, read at scrape time (the services that run migrations serve no
 * /metrics): `data_layout` (the keyspace's), `data_layout_release` (this replica's code), and while a migration
 * is recorded `data_layout_migration_items{step,kind="seen"|"changed"}` and `data_layout_migration_running`
 * (1 while a runner holds the lease). An upgrade is done when `data_layout` equals `data_layout_release`.
 */
export function registerLayoutMetrics(registry: Registry, redis: RedisClient) {
  const store = createLayoutStore(redis);
  let last: { at: number; state: Promise<LayoutState> } | null = null;
  const read = () => {
    if (!last || Date.now() - last.at > FRESH_MS) {
      const state = Promise.all([store.version(), store.progress(), store.locked()]).then(
        ([version, progress, running]) => ({ version, progress, running }),
      );
      last = { at: Date.now(), state };
    }
    return last.state;
  };
  new Gauge({
    name: "data_layout",
    help: "The layout the stored data is in (layout:version)",
    registers: [registry],
    async collect() {
      const s = await read().catch(() => null);
      if (s?.version != null) this.set(s.version);
    },
  });
  new Gauge({
    name: "data_layout_release",
    help: "The layout this release writes",
    registers: [registry],
    collect() {
      this.set(CURRENT_LAYOUT);
    },
  });
  new Gauge({
    name: "data_layout_migration_items",
    help: "Items the migration under way has examined (seen) and changed",
    labelNames: ["step", "kind"],
    registers: [registry],
    async collect() {
      const s = await read().catch(() => null);
      this.reset();
      if (!s?.progress) return;
      this.set({ step: s.progress.step, kind: "seen" }, s.progress.seen);
      this.set({ step: s.progress.step, kind: "changed" }, s.progress.changed);
    },
  });
  new Gauge({
    name: "data_layout_migration_running",
    help: "1 while a runner holds the migration's lease",
    registers: [registry],
    async collect() {
      const s = await read().catch(() => null);
      if (s) this.set(s.running ? 1 : 0);
    },
  });
}
