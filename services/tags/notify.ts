import type { HandlerContext } from "../kit/handler";
import { spaceOf } from "../kit/space";
import type { ChangePublisher } from "../memory-data/publisher";
import type { TagStore } from "./store";

/** Called by handlers after a committed link change, with the memories whose tags changed. */
export type NotifyTagsChanged = (ctx: HandlerContext, memoryIds: string[]) => Promise<void>;

/** Matches the most upserts one `search.index` call takes. */
const CHUNK = 1000;

/**
 * The changed memories, read afresh (hash and link sets at their new version), go out as
 * `tags_changed` through the change publisher, one chunk at a time; memories deleted meanwhile are
 * left out.
 */
export function createNotifier(deps: { store: TagStore; changes: ChangePublisher }): NotifyTagsChanged {
  return async (ctx, memoryIds) => {
    const space = spaceOf(ctx);
    for (let i = 0; i < memoryIds.length; i += CHUNK) {
      const snapshots = await deps.store.snapshots(space, memoryIds.slice(i, i + CHUNK));
      await deps.changes.committed(
        ctx,
        snapshots.map((memory) => ({ type: "tags_changed", memory })),
      );
    }
  };
}
