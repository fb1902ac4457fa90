import type { JetStreamClient } from "nats";
import type { Caller } from "../contract/op";
import { memoryEventSubject, type MemoryEvent } from "../contract/events";
import type { Bus } from "../kit/bus";
import { encodeJson } from "../kit/wire";
import { errorFields, type Logger } from "../kit/log";
import { createIndexWriter } from "../memory-data/index-writes";
import type { TagStore } from "./store";

/** Called by handlers after a committed link change: which memories changed, and for whom. */
export type NotifyTagsChanged = (caller: Caller, requestId: string, memoryIds: string[], log: Logger) => Promise<void>;

/** Matches the most upserts one `search.index` call takes. */
const CHUNK = 1000;

/**
 * For each changed memory: a `tags_changed` event on JetStream (msgID `<id>:<version>`, so a repeat is
 * dropped) and one synchronous `search.index` call per chunk, so search filters see the new tags when
 * the write returns. Neither failure undoes the committed write: it is logged; the event (or the
 * next change) brings the index back in line.
 */
export function createNotifier(deps: { store: TagStore; js: JetStreamClient; bus: Bus }): NotifyTagsChanged {
  const indexNow = createIndexWriter(deps.bus);
  return async (caller, requestId, memoryIds, log) => {
    const space = { tenant: caller.tenant, env: caller.env };
    for (let i = 0; i < memoryIds.length; i += CHUNK) {
      const snapshots = await deps.store.snapshots(space, memoryIds.slice(i, i + CHUNK));
      if (snapshots.length === 0) continue;
      const at = new Date().toISOString();
      const published = Promise.all(
        snapshots.map((memory) => {
          const event: MemoryEvent = {
            type: "tags_changed",
            tenant: caller.tenant,
            env: caller.env,
            memory_id: memory.id,
            version: memory.version,
            changed: [],
            memory,
            at,
          };
          return deps.js.publish(memoryEventSubject("tags_changed"), encodeJson(event), {
            msgID: `${memory.id}:${memory.version}`,
          });
        }),
      ).catch((err) =>
        log.error("tags_changed event not published", { memories: snapshots.length, ...errorFields(err) }),
      );
      const indexed = indexNow({ upserts: snapshots, deletes: [] }, { requestId, caller }, log, {
        memories: snapshots.length,
      });
      await Promise.all([published, indexed]);
    }
  };
}
