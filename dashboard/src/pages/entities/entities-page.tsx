import { useMutation, useQuery } from "@urql/preact";
import { useReload } from "../../ui/reload";
import { useState } from "preact/hooks";
import type { EntityType } from "../../generated/graphql";
import { useCanWrite } from "../../session-context";
import { messageOf } from "../../ui/errors";
import { ErrorLine, StatusLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { CreateEntityMutation, EntitiesList } from "./documents";
import { NoEntities } from "./empty";
import { EntityRow } from "./entity-row";
import { TypeSelect } from "./types";

/** Entities: every entity with its memory count; create, rename, retype, delete; with none yet, what they are. */
export function EntitiesPage() {
  const canWrite = useCanWrite();
  const [search, setSearch] = useState("");
  const [{ data, error }, refetch] = useQuery({ query: EntitiesList, variables: { search: search || null } });
  const [name, setName] = useState("");
  const [type, setType] = useState<EntityType>("PERSON");
  const [created, create] = useMutation(CreateEntityMutation);
  const reload = useReload(refetch);
  const total = data?.entities?.total ?? 0;
  // No entity at all (not merely none matching the name filter): say what they are and how they are made.
  const none = data !== undefined && total === 0 && search === "";
  return (
    <>
      <h1>Entities</h1>
      {canWrite && (
        <form
          class="row panel"
          aria-label="New entity"
          onSubmit={async (e) => {
            e.preventDefault();
            const res = await create({ input: { name: name.trim(), type } });
            if (res.data?.createEntity) {
              setName("");
              reload();
            }
          }}
        >
          <label for="new-entity-name">New entity name</label>
          <input id="new-entity-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="new-entity-type">Type</label>
          <TypeSelect id="new-entity-type" value={type} onChange={setType} />
          <button type="submit" disabled={created.fetching}>
            Create entity
          </button>
        </form>
      )}
      <ErrorLine message={messageOf(created.error) ?? messageOf(error)} />
      <div class="field">
        <label for="entity-search">Find by name</label>
        <input id="entity-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </div>
      <StatusLine text={`${plural(total, "entity")}.`} />
      {none ? (
        <NoEntities canWrite={canWrite} />
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Entities</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
                <th scope="col">Memories</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {(data?.entities?.items ?? []).map((e) => (
                <EntityRow key={`${e.id}:${e.name}:${e.type}`} entity={e} onChanged={reload} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
