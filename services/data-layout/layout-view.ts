import type { Logger } from "../kit/log";
import { errorFields } from "../kit/log";
import type { LayoutStore } from "./store";
import { CURRENT_LAYOUT, LayoutTooNewError } from "./layout";

/** How often a process reads the keyspace's layout again; a step waits twice this before its first batch. */
export const LAYOUT_POLL_MS = 2000;

/**
 * What form a writer writes (expand/contract): the layout the keyspace is in or is being migrated to, read every
 * LAYOUT_POLL_MS. Until a migration to layout N is recorded, the code writes the form of the layout before N, so
 * replicas of the release before still read everything; once it is recorded, it writes N's form, and the step's
 * walk converts what was written before.
 */
export async function createLayoutView(store: LayoutStore, log: Logger, pollMs = LAYOUT_POLL_MS) {
  let layout = await store.versionOrInit();
  // A command that builds a service's pieces (reindex) must not write an older form into newer data either.
  if (layout > CURRENT_LAYOUT) throw new LayoutTooNewError(layout, CURRENT_LAYOUT);
  const read = async () => {
    const [version, progress] = await Promise.all([store.version(), store.progress()]);
    layout = Math.max(version ?? layout, progress?.to ?? 0);
  };
  await read();
  const timer = setInterval(
    () => void read().catch((err) => log.warn("reading the data layout failed", errorFields(err))),
    pollMs,
  );
  timer.unref?.();
  return {
    /** Whether writers write layout `n`'s form. */
    writes: (n: number) => layout >= n,
    current: () => layout,
    /** Reads it now (after a migration this process ran). */
    refresh: read,
    stop: () => clearInterval(timer),
  };
}

export type LayoutView = Awaited<ReturnType<typeof createLayoutView>>;
