import { useMutation } from "@urql/preact";
import { useState } from "preact/hooks";
import type { TagsListQuery } from "../../generated/graphql";
import { RowActions, type RowMode } from "../../ui/row-actions";
import { messageOf } from "../../ui/errors";
import { ErrorLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { DeleteTagMutation, UpdateTagMutation } from "./documents";

type Tag = NonNullable<TagsListQuery["tags"]>["items"][number];

/** One tag: its colour, name and count; rename and recolour in place, delete after a confirmation. */
export function TagRow({ tag, onChanged }: { tag: Tag; onChanged: () => void }) {
  const [mode, setMode] = useState<RowMode>("view");
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
      <RowActions
        kind="tag"
        name={tag.name}
        mode={mode}
        setMode={setMode}
        deleting={deleted}
        onDelete={async () => {
          const res = await remove({ id: tag.id });
          if (res.data?.deleteTag) onChanged();
        }}
      >
        The tag is removed from the {plural(tag.memoryCount, "memory")} that carry it; the memories stay.
      </RowActions>
    </tr>
  );
}
