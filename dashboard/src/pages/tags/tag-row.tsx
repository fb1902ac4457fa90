import { useMutation } from "@urql/preact";
import { useState } from "preact/hooks";
import type { TagsListQuery } from "../../generated/graphql";
import { useCanWrite } from "../../session-context";
import { ConfirmDialog } from "../../ui/dialog";
import { messageOf } from "../../ui/errors";
import { ErrorLine } from "../../ui/notice";
import { DeleteTagMutation, UpdateTagMutation } from "./documents";

type Tag = NonNullable<TagsListQuery["tags"]>["items"][number];

/** One tag: its colour, name and count; rename and recolour in place, delete after a confirmation. */
export function TagRow({ tag, onChanged }: { tag: Tag; onChanged: () => void }) {
  const canWrite = useCanWrite();
  const [mode, setMode] = useState<"view" | "edit" | "delete">("view");
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tag.color ?? "#0b57d0");
  const [updated, update] = useMutation(UpdateTagMutation);
  const [deleted, remove] = useMutation(DeleteTagMutation);
  const save = async (e: Event) => {
    e.preventDefault();
    const res = await update({ id: tag.id, input: { name: name.trim(), color } });
    if (res.data?.updateTag) {
      setMode("view");
      onChanged();
    }
  };
  return (
    <tr data-tag-id={tag.id}>
      <td>
        <span class="swatch" style={{ background: tag.color ?? "transparent" }} aria-hidden="true" />
        <span class="mono">{tag.color ?? "no colour"}</span>
      </td>
      <td>
        {mode === "edit" ? (
          <form class="row" onSubmit={save} aria-label={`Edit tag ${tag.name}`}>
            <label for={`name-${tag.id}`} class="sr-only">
              Name
            </label>
            <input id={`name-${tag.id}`} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
            <label for={`color-${tag.id}`} class="sr-only">
              Colour
            </label>
            <input id={`color-${tag.id}`} type="color" value={color} onInput={(e) => setColor(e.currentTarget.value)} />
            <button type="submit" class="small" disabled={updated.fetching}>
              Save
            </button>
            <button type="button" class="small secondary" onClick={() => setMode("view")}>
              Cancel
            </button>
          </form>
        ) : (
          tag.name
        )}
        <ErrorLine message={messageOf(updated.error)} />
      </td>
      <td>{tag.memoryCount}</td>
      <td class="actions-cell">
        {canWrite && mode === "view" && (
          <>
            <button type="button" class="small" aria-label={`Edit ${tag.name}`} onClick={() => setMode("edit")}>
              Edit
            </button>
            <button
              type="button"
              class="small danger"
              aria-label={`Delete ${tag.name}`}
              onClick={() => setMode("delete")}
            >
              Delete
            </button>
          </>
        )}
        {mode === "delete" && (
          <ConfirmDialog
            title={`Delete tag ${tag.name}?`}
            confirmLabel="Delete"
            danger
            busy={deleted.fetching}
            onCancel={() => setMode("view")}
            onConfirm={async () => {
              const res = await remove({ id: tag.id });
              if (res.data?.deleteTag) onChanged();
            }}
          >
            <p>
              The tag is removed from the {tag.memoryCount} {tag.memoryCount === 1 ? "memory" : "memories"} that carry
              it; the memories stay.
            </p>
            <ErrorLine message={messageOf(deleted.error)} />
          </ConfirmDialog>
        )}
      </td>
    </tr>
  );
}
