import { useMutation } from "@urql/preact";
import { useState } from "preact/hooks";
import type { EntitiesListQuery } from "../../generated/graphql";
import { RowActions, type RowMode } from "../../ui/row-actions";
import { messageOf } from "../../ui/errors";
import { ErrorLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { lower } from "../memories/options";
import { DeleteEntityMutation, UpdateEntityMutation } from "./documents";
import { TypeSelect } from "./types";

type Entity = NonNullable<EntitiesListQuery["entities"]>["items"][number];

/** One entity: name, type and count; rename or retype in place, delete after a confirmation. */
export function EntityRow({ entity, onChanged }: { entity: Entity; onChanged: () => void }) {
  const [mode, setMode] = useState<RowMode>("view");
  const [name, setName] = useState(entity.name);
  const [type, setType] = useState(entity.type);
  const [updated, update] = useMutation(UpdateEntityMutation);
  const [deleted, remove] = useMutation(DeleteEntityMutation);
  const save = async (e: Event) => {
    e.preventDefault();
    const res = await update({ id: entity.id, input: { name: name.trim(), type } });
    if (res.data?.updateEntity) {
      setMode("view");
      onChanged();
    }
  };
  return (
    <tr data-entity-id={entity.id}>
      <td>
        {mode === "edit" ? (
          <form class="row" onSubmit={save} aria-label={`Edit entity ${entity.name}`}>
            <label for={`ename-${entity.id}`} class="sr-only">
              Name
            </label>
            <input id={`ename-${entity.id}`} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
            <label for={`etype-${entity.id}`} class="sr-only">
              Type
            </label>
            <TypeSelect id={`etype-${entity.id}`} value={type} onChange={setType} />
            <button type="submit" class="small" disabled={updated.fetching}>
              Save
            </button>
            <button type="button" class="small secondary" onClick={() => setMode("view")}>
              Cancel
            </button>
          </form>
        ) : (
          entity.name
        )}
        <ErrorLine message={messageOf(updated.error)} />
      </td>
      <td>{lower(entity.type)}</td>
      <td>{entity.description ?? ""}</td>
      <td>{entity.memoryCount}</td>
      <RowActions
        kind="entity"
        name={entity.name}
        mode={mode}
        setMode={setMode}
        deleting={deleted}
        onDelete={async () => {
          const res = await remove({ id: entity.id });
          if (res.data?.deleteEntity) onChanged();
        }}
      >
        The entity is unlinked from its {plural(entity.memoryCount, "memory")}; the memories stay.
      </RowActions>
    </tr>
  );
}
