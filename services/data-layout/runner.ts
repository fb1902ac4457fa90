import type { Logger } from "../kit/log";
import type { LayoutStore, Progress } from "./store";
import { CURRENT_LAYOUT, LayoutTooNewError } from "./layout";
import type { MigrationStep } from "./step";

export interface RunOptions {
  /** Items per batch (the step's unit: search indexes for the chunked-vectors step). */
  batchSize: number;
  /** Pause between batches, so a migration never takes the whole of Redis or of the embedder. */
  pauseMs: number;
  /** Counts what would change, writes nothing (no cursor, no lease, no layout). */
  dryRun?: boolean;
  /** The lease: renewed after every batch; a runner that dies leaves it to expire. */
  leaseMs?: number;
  log: Logger;
  /** Called after every batch (the CLI's progress line). */
  onBatch?: (step: MigrationStep, progress: Progress) => void;
  /** Stops between batches when it turns true (a process shutting down); the cursor is kept. */
  stopped?: () => boolean;
}

export interface RunResult {
  /**
   * current: nothing to do; migrated: at the current layout; partial: the steps given ended before it (the
   * rest are other processes'); busy: another runner holds the lease; stopped: asked to, between batches.
   */
  status: "current" | "migrated" | "partial" | "busy" | "stopped" | "dry-run";
  from: number;
  to: number;
  steps: { name: string; seen: number; changed: number }[];
}

const DEFAULT_LEASE_MS = 60_000;

/**
 * Runs the steps from the keyspace's layout to the current one, each from its saved cursor (a migration killed
 * midway resumes where its last batch ended), one runner at a time (the lease), `batchSize` items a batch with
 * `pauseMs` between, logging each batch. When a step's walk ends the keyspace's layout becomes its target. It
 * stops at the first layout without a step in `steps` (registry.ts pendingSteps checks they are all there).
 */
export async function runMigrations(store: LayoutStore, steps: MigrationStep[], opts: RunOptions): Promise<RunResult> {
  const from = await store.versionOrInit();
  if (from > CURRENT_LAYOUT) throw new LayoutTooNewError(from, CURRENT_LAYOUT);
  const result: RunResult = { status: "current", from, to: from, steps: [] };
  if (from === CURRENT_LAYOUT) return result;
  if (opts.dryRun) return dryRun(steps, from, opts, result);

  const owner = crypto.randomUUID();
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  if (!(await store.lock(owner, leaseMs))) return { ...result, status: "busy" };
  try {
    for (let layout = from; layout < CURRENT_LAYOUT; layout++) {
      const step = steps.find((s) => s.from === layout);
      if (!step) return { ...result, status: "partial" };
      const done = await runStep(store, step, owner, leaseMs, opts);
      result.steps.push({ name: step.name, seen: done.seen, changed: done.changed });
      if (done.status === "stopped") return { ...result, status: "stopped" };
      result.to = layout + 1;
    }
    return { ...result, status: "migrated" };
  } finally {
    await store.unlock(owner).catch(() => undefined);
  }
}

async function runStep(
  store: LayoutStore,
  step: MigrationStep,
  owner: string,
  leaseMs: number,
  opts: RunOptions,
): Promise<Progress & { status: "done" | "stopped" }> {
  const to = step.from + 1;
  const saved = await store.progress();
  const resumed = saved?.step === step.name;
  const now = Date.now();
  const p: Progress = resumed
    ? saved
    : { step: step.name, from: step.from, to, cursor: "0", seen: 0, changed: 0, startedMs: now, updatedMs: now };
  const log = opts.log.child({ migration: step.name, from: step.from, to });
  if (!resumed) await store.saveProgress(p);
  log.info(resumed ? "layout migration resumed" : "layout migration started", {
    cursor: p.cursor,
    summary: step.summary,
  });
  // The writers switch to the new form once they see the migration recorded (layout-view.ts).
  if (step.settleMs > 0) await Bun.sleep(step.settleMs);
  for (;;) {
    if (opts.stopped?.()) {
      log.info("layout migration paused", { cursor: p.cursor, seen: p.seen, changed: p.changed });
      return { ...p, status: "stopped" };
    }
    const batch = await step.batch(p.cursor, opts.batchSize, { dryRun: false });
    p.cursor = batch.cursor;
    p.seen += batch.seen;
    p.changed += batch.changed;
    p.updatedMs = Date.now();
    await store.saveProgress(p);
    log.info("layout migration progress", { cursor: p.cursor, seen: p.seen, changed: p.changed });
    opts.onBatch?.(step, p);
    if (batch.cursor === "0") break;
    if (!(await store.renew(owner, leaseMs))) throw new Error("the migration's lease was lost to another runner");
    if (opts.pauseMs > 0) await Bun.sleep(opts.pauseMs);
  }
  await store.complete(to);
  log.info("layout migration done", { layout: to, seen: p.seen, changed: p.changed, ms: Date.now() - p.startedMs });
  return { ...p, status: "done" };
}

async function dryRun(steps: MigrationStep[], from: number, opts: RunOptions, result: RunResult): Promise<RunResult> {
  for (let layout = from; layout < CURRENT_LAYOUT; layout++) {
    const step = steps.find((s) => s.from === layout);
    if (!step) throw new Error(`no migration step from layout ${layout}`);
    const p: Progress = {
      step: step.name,
      from: layout,
      to: layout + 1,
      cursor: "0",
      seen: 0,
      changed: 0,
      startedMs: Date.now(),
      updatedMs: Date.now(),
    };
    do {
      const batch = await step.batch(p.cursor, opts.batchSize, { dryRun: true });
      p.cursor = batch.cursor;
      p.seen += batch.seen;
      p.changed += batch.changed;
      opts.onBatch?.(step, p);
    } while (p.cursor !== "0");
    result.steps.push({ name: step.name, seen: p.seen, changed: p.changed });
  }
  return { ...result, to: CURRENT_LAYOUT, status: "dry-run" };
}
