import { Type as T } from "@sinclair/typebox";
import { op } from "./op";
import { MemorySnapshot } from "./events";

// The wait lives in the leaf ./index-wait, which ./memories reads without importing the events this file needs.
export { INDEX_WAIT_MS, INDEX_WAIT_PER_UPSERT_MS, indexWaitMs } from "./index-wait";

/**
 * Internal: the memories/tags services call this after a committed write and wait (with a short
 * timeout) so a memory is searchable as soon as the write returns (read-your-writes). The same
 * change also goes out as an event, so a missed call converges later. Tenant comes from the caller.
 */
export const indexMemories = op({
  subject: "search.index",
  input: T.Object({
    upserts: T.Array(MemorySnapshot, { maxItems: 1000 }),
    deletes: T.Array(T.Object({ id: T.String(), version: T.Integer() }), { maxItems: 10_000 }),
  }),
  output: T.Object({ indexed: T.Integer(), removed: T.Integer() }),
  summary: "Internal: apply memory changes to the search index now",
});
