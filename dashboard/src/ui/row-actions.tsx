import type { ComponentChildren } from "preact";
import type { CombinedError } from "@urql/preact";
import { useCanWrite } from "../session-context";
import { ConfirmDialog } from "./dialog";
import { messageOf } from "./errors";
import { ErrorLine } from "./notice";

export type RowMode = "view" | "edit" | "delete";

interface RowActionsProps {
  /** What the row is, for labels: `tag`, `entity`. */
  kind: string;
  name: string;
  mode: RowMode;
  setMode: (mode: RowMode) => void;
  /** The delete mutation's state. */
  deleting: { fetching: boolean; error?: CombinedError };
  onDelete: () => void;
  /** What deleting does, stated before the confirmation. */
  children: ComponentChildren;
}

/** The last cell of a catalogue row: Edit and Delete for a key that may write, and the delete's confirmation. */
export function RowActions({ kind, name, mode, setMode, deleting, onDelete, children }: RowActionsProps) {
  const canWrite = useCanWrite();
  return (
    <td class="actions-cell">
      {canWrite && mode === "view" && (
        <>
          <button type="button" class="small" aria-label={`Edit ${name}`} onClick={() => setMode("edit")}>
            Edit
          </button>
          <button type="button" class="small danger" aria-label={`Delete ${name}`} onClick={() => setMode("delete")}>
            Delete
          </button>
        </>
      )}
      {mode === "delete" && (
        <ConfirmDialog
          title={`Delete ${kind} ${name}?`}
          confirmLabel="Delete"
          danger
          busy={deleting.fetching}
          onCancel={() => setMode("view")}
          onConfirm={onDelete}
        >
          <p>{children}</p>
          <ErrorLine message={messageOf(deleting.error)} />
        </ConfirmDialog>
      )}
    </td>
  );
}
