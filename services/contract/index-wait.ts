// How long a write waits for search.index (./search-index.ts) before returning anyway: the event catches up.
// A leaf module, so operations timed by it (./memories.ts) need not import the index's schemas and events.

/** The wait of a write of up to 60 memories. */
export const INDEX_WAIT_MS = 3000;
/**
 * A write of more than 60 memories (a batch) waits this long per memory: it waits for their embeddings, which
 * take ~3–8 ms a text on 2 cores (more while other batches queue for the model).
 */
export const INDEX_WAIT_PER_UPSERT_MS = 50;

/** How long a write of `upserts` memories waits for the index. */
export const indexWaitMs = (upserts: number) => Math.max(INDEX_WAIT_MS, upserts * INDEX_WAIT_PER_UPSERT_MS);
