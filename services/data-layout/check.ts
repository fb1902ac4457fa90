import type { Logger } from "../kit/log";
import type { RedisClient } from "../kit/redis-client";
import { CURRENT_LAYOUT, LayoutTooNewError } from "./layout";
import { createLayoutStore } from "./store";

/**
 * Checked by every process at start, before it serves anything: the keyspace's layout (recorded first on an
 * empty keyspace, store.ts). A layout newer than this release's is one error line and exit code 78 (EX_CONFIG):
 * an older replica started beside migrated data must not write the old form into it.
 */
export async function checkLayoutAtStart(
  redis: RedisClient,
  log: Logger,
  exit: (code: number) => never = process.exit,
): Promise<number> {
  const layout = await createLayoutStore(redis).versionOrInit();
  if (layout > CURRENT_LAYOUT) {
    log.error(new LayoutTooNewError(layout, CURRENT_LAYOUT).message, { layout, known: CURRENT_LAYOUT });
    return exit(LAYOUT_EXIT_CODE);
  }
  if (layout < CURRENT_LAYOUT) log.info("data layout older than this release's: a migration is pending", { layout });
  return layout;
}

/** The exit code of a process that refuses a newer layout (sysexits' EX_CONFIG). */
export const LAYOUT_EXIT_CODE = 78;
