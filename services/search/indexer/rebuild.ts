import type { Space } from "../../kit/space";
import type { Caller } from "../../contract/op";
import { errorFields, type Logger } from "../../kit/log";
import type { SearchStore } from "../store";
import { INDEX_LAYOUT, READ_INDEX_LAYOUTS, WHOLE_INDEX_LAYOUT } from "../store/fields";
import type { MemoryReader } from "../memories-client";
import type { Apply } from "./apply";

export interface RebuildDeps {
  store: SearchStore;
  apply: Apply;
  reader: MemoryReader;
  modelId: string;
  dimensions: number;
  log: Logger;
  /** Whether the applier writes chunked vectors (data layout 3 on): the meta names the layout written. */
  chunked?: () => boolean;
}

export interface RebuildReport {
  status: "done" | "busy";
  total: number;
  indexed: number;
  removed: number;
}

export type Progress = (done: number, total: number) => void;

const LOCK_TTL_MS = 60_000;
const REWEIGHT_BATCH = 200;

/** The identity a rebuild reads the memories store with: the tenant's own, read-only. */
export const rebuildCaller = (s: Space): Caller => ({
  tenant: s.tenant,
  env: s.env,
  keyId: "search-rebuild",
  scopes: ["memories:read"],
});

/**
 * Rebuilds one tenant's index from the memories store: every memory listed is (re)indexed (as
 * "version unknown", so nothing newer that events or index calls wrote meanwhile is overwritten),
 * memories the store no longer has are removed, lexical weights are recomputed with the current
 * average length, vectors of other models are dropped, and the meta is marked ready.
 */
export function createRebuilder(deps: RebuildDeps) {
  const { store, apply, reader, log } = deps;
  const layoutWritten = () => ((deps.chunked?.() ?? true) ? INDEX_LAYOUT : WHOLE_INDEX_LAYOUT);

  async function rebuild(space: Space, progress?: Progress): Promise<RebuildReport> {
    const owner = crypto.randomUUID();
    if (!(await store.admin.lock(space, owner, LOCK_TTL_MS)))
      return { status: "busy", total: 0, indexed: 0, removed: 0 };
    const started = Date.now();
    const on = { caller: rebuildCaller(space), requestId: `rebuild-${owner}` };
    const report: RebuildReport = { status: "done", total: 0, indexed: 0, removed: 0 };
    try {
      const building = { model: deps.modelId, dims: deps.dimensions, state: "building" as const, builtAt: 0 };
      // Taken before the first page: a switch to chunks meanwhile is the migration's, which rebuilds again.
      const layout = layoutWritten();
      await store.admin.setMeta(space, { ...building, layout });
      const seen = new Set<string>();
      let done = 0;
      for await (const page of reader.all(on)) {
        report.total = page.total;
        for (const s of page.snapshots) seen.add(s.id);
        const r = await apply(
          space,
          { upserts: page.snapshots, deletes: [] },
          { unversioned: true, lane: "background" },
        );
        report.indexed += r.indexed;
        done += page.snapshots.length;
        progress?.(done, page.total);
        await store.admin.refreshLock(space, owner, LOCK_TTL_MS);
      }
      // Indexed, but gone from the store (and not written since we started): remove.
      const ids: string[] = [];
      for await (const page of store.admin.indexed(space)) {
        const gone = page.filter((d) => !seen.has(d.id) && d.at < started);
        if (gone.length > 0) {
          const states = await store.writes.states(
            space,
            gone.map((d) => d.id),
          );
          const statuses = await store.writes.remove(
            space,
            gone.map((d) => ({ id: d.id, version: states.get(d.id)?.version ?? 0 })),
          );
          report.removed += statuses.filter((s) => s === "ok").length;
        }
        for (const d of page) if (seen.has(d.id)) ids.push(d.id);
      }
      for (let i = 0; i < ids.length; i += REWEIGHT_BATCH)
        await store.writes.reweight(space, ids.slice(i, i + REWEIGHT_BATCH));
      await store.admin.dropOtherVectorSets(space, deps.modelId);
      await store.admin.setMeta(space, {
        model: deps.modelId,
        dims: deps.dimensions,
        state: "ready",
        builtAt: Date.now(),
        layout,
      });
      log.info("index rebuilt", { tenant: space.tenant, env: space.env, ...report, ms: Date.now() - started });
      return report;
    } finally {
      await store.admin.unlock(space, owner).catch(() => undefined);
    }
  }

  /**
   * Checked before every query: an index without meta (lost, or never built), built by another model or
   * with a layout this code does not read is rebuilt in the background; the query is answered meanwhile from
   * what is there. Both layouts it reads stay as they are: moving from one to the other is a migration's.
   * Known-good spaces are remembered for a while so the check costs nothing most of the time.
   */
  const good = new Map<string, number>();
  const attempted = new Map<string, number>();
  const GOOD_FOR_MS = 2_000;
  const RETRY_AFTER_MS = 30_000;

  /** As many memories indexed, with a vector of this model, as the memories store has. */
  async function complete(space: Space): Promise<boolean> {
    const on = { caller: rebuildCaller(space), requestId: `ensure-${crypto.randomUUID()}` };
    const [indexed, vectors, stored] = await Promise.all([
      store.admin.size(space),
      store.admin.vectorCount(space, deps.modelId),
      reader.count(on),
    ]);
    return indexed === stored && vectors === stored;
  }

  async function ensure(space: Space): Promise<void> {
    const key = `${space.tenant}:${space.env}`;
    const now = Date.now();
    if ((good.get(key) ?? 0) > now) return;
    const meta = await store.admin.meta(space);
    if (meta && meta.model === deps.modelId && READ_INDEX_LAYOUTS.includes(meta.layout) && meta.state === "ready") {
      good.set(key, now + GOOD_FOR_MS);
      return;
    }
    if ((attempted.get(key) ?? 0) > now) return;
    attempted.set(key, now + RETRY_AFTER_MS);
    if (!meta && (await complete(space).catch(() => false))) {
      // A tenant's index is complete from its first write on (every write is indexed, events repair
      // what a call missed); nothing had marked it yet. Marking it costs three counts, a rebuild
      // re-reads every memory (~1 s of Redis at 10,000).
      await store.admin.setMeta(space, {
        model: deps.modelId,
        dims: deps.dimensions,
        state: "ready",
        builtAt: Date.now(),
        layout: layoutWritten(),
      });
      good.set(key, now + GOOD_FOR_MS);
      return;
    }
    void rebuild(space).catch((err) =>
      log.warn("index rebuild failed; will retry", { tenant: space.tenant, env: space.env, ...errorFields(err) }),
    );
  }

  return { rebuild, ensure };
}

export type Rebuilder = ReturnType<typeof createRebuilder>;
