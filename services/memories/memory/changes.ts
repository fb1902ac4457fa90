import { snapshotOfMemory, type DeleteReason } from "../../contract/events";
import type { MemoryChange } from "../../memory-data/publisher";
import type { MemoryRow, Removal } from "../store/record";
import type { Created } from "./create-args";

/** The event of a memory a write changed besides its own (superseded, orphaned, made the latest again). */
export const updatedChange = (row: MemoryRow, changed: string[]): MemoryChange => ({
  type: "updated",
  memory: snapshotOfMemory(row.memory, row.version),
  changed,
});

/** The events of a removal (a delete, or the sweeper's purge): its deletions, then the memories it changed. */
export const removalChanges = (removal: Removal, reason: DeleteReason): MemoryChange[] => [
  ...removal.deleted.map((d) => ({ type: "deleted" as const, id: d.id, version: d.version, reason })),
  ...removal.updates.map((u) => updatedChange(u.row, u.changed)),
];

/**
 * The events of a create (through the API or an import): the memory, the memory it superseded, and the memory
 * an import found replacing it (now naming it in `supersedes`).
 */
export const createdChanges = (row: Created): MemoryChange[] => {
  const changes: MemoryChange[] = [{ type: "created", memory: snapshotOfMemory(row.memory, row.version) }];
  if (row.superseded) changes.push(updatedChange(row.superseded, ["superseded_by", "valid_to"]));
  if (row.replacedBy) changes.push(updatedChange(row.replacedBy, ["supersedes"]));
  return changes;
};
