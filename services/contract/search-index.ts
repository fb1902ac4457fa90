import { Type as T } from "@sinclair/typebox";
import { op } from "./op";
import { MemorySnapshot } from "./events";

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

/** How long a write waits for the index before returning anyway (the event catches up). */
export const INDEX_WAIT_MS = 3000;
/**
 * A write of more than 60 memories (a batch) waits this long per memory: it waits for their embeddings, which
 * take ~3–8 ms a text on 2 cores (more while other batches queue for the model).
 */
export const INDEX_WAIT_PER_UPSERT_MS = 50;

/** How long a write of `upserts` memories waits for the index. */
export const indexWaitMs = (upserts: number) => Math.max(INDEX_WAIT_MS, upserts * INDEX_WAIT_PER_UPSERT_MS);
