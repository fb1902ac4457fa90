/** A memory: its create arguments, its events, its store part and a restricted caller's checks. */
export type { Created, MemoryDraft, NewLife } from "./create-args";
export type { MemoryFilter, MemoryPatch } from "./store";
export { createdChanges, removalChanges, updatedChange } from "./changes";
export { restrictionChecks, restrictionOf, type RestrictionChecks } from "./restriction";
