/**
 * Keeping the index up to date: `apply` indexes memory changes idempotently (the writers' `search.index`
 * calls and the EVENTS consumer both go through it), and a rebuild re-reads a tenant's memories from
 * the memories service when its index is missing, outdated or built by another model.
 */
export { createApplier, type Apply, type ApplyOptions, type Changes } from "./apply";
export { INDEXER_DURABLE, startIndexer } from "./consumer";
export { toIndexDoc } from "./document";
export { createRebuilder, type Progress, type Rebuilder, type RebuildReport } from "./rebuild";
