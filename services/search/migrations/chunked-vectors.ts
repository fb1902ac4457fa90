import type { RedisClient } from "../../kit/redis-client";
import { scanPage } from "../../kit/redis-scan";
import type { Space } from "../../kit/space";
import { LAYOUT_POLL_MS } from "../../data-layout/layout-view";
import type { MigrationStep } from "../../data-layout/step";
import type { Rebuilder } from "../indexer";
import { ALL_KEY_MATCH, spaceOfAllKey } from "../store/keyspace";

/** While another rebuild of an index runs (a query's), wait this long before trying again. */
const BUSY_RETRY_MS = 500;
/** SCAN examines this many keys per call for each index a batch asks for: most keys are not `all` keys. */
const SCAN_PER_ITEM = 100;

/**
 * Data layout 2 → 3: every search index rebuilt while the writers write chunked vectors, so a long memory
 * indexed whole (one vector of its first 2,000 characters) gets a vector per chunk of the model's input. Every
 * index, not only those whose meta says layout 2: between a replica's start and the migration, this release too
 * writes the whole form into indexes of any meta. An item is an index; a rebuild re-embeds only memories whose
 * chunks changed, skips nothing newer than itself (writes meanwhile win) and is idempotent, so a batch redone
 * after a kill changes nothing more. The cursor is a SCAN cursor over the `all` keys (every primary of a cluster).
 */
export function chunkedVectorsStep(redis: RedisClient, rebuilder: Pick<Rebuilder, "rebuild">): MigrationStep {
  async function rebuildWhenFree(space: Space): Promise<void> {
    for (;;) {
      const r = await rebuilder.rebuild(space);
      if (r.status === "done") return;
      // Another rebuild holds the index; it may have started in the whole form: once it ends, rebuild again.
      await Bun.sleep(BUSY_RETRY_MS);
    }
  }

  return {
    from: 2,
    name: "search-chunked-vectors",
    summary: "every search index rebuilt so that a long memory has a vector per chunk of the model's input",
    settleMs: 2 * LAYOUT_POLL_MS,
    async batch(cursor, size, { dryRun }) {
      const spaces = new Map<string, Space>();
      let next = cursor;
      do {
        const page = await scanPage(redis, next, ALL_KEY_MATCH, size * SCAN_PER_ITEM);
        next = page.cursor;
        for (const key of page.keys) {
          const space = spaceOfAllKey(key);
          if (space) spaces.set(key, space);
        }
      } while (next !== "0" && spaces.size < size);
      if (!dryRun) for (const space of spaces.values()) await rebuildWhenFree(space);
      return { cursor: next, seen: spaces.size, changed: spaces.size };
    },
  };
}
