import { useMutation, useQuery } from "@urql/preact";
import { useReload } from "../../ui/reload";
import { useState } from "preact/hooks";
import { useCanWrite } from "../../session-context";
import { messageOf } from "../../ui/errors";
import { ErrorLine, StatusLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { CreateTagMutation, TagsList } from "./documents";
import { TagRow } from "./tag-row";

/** Tags: every tag with its colour and memory count; create, rename, recolour, delete. */
export function TagsPage() {
  const canWrite = useCanWrite();
  const [search, setSearch] = useState("");
  const [{ data, error }, refetch] = useQuery({ query: TagsList, variables: { search: search || null } });
  const [name, setName] = useState("");
  const [color, setColor] = useState("#0b57d0");
  const [created, create] = useMutation(CreateTagMutation);
  const reload = useReload(refetch);
  const tags = data?.tags?.items ?? [];
  return (
    <>
      <h1>Tags</h1>
      {canWrite && (
        <form
          class="row panel"
          aria-label="New tag"
          onSubmit={async (e) => {
            e.preventDefault();
            const res = await create({ input: { name: name.trim(), color } });
            if (res.data?.createTag) {
              setName("");
              reload();
            }
          }}
        >
          <label for="new-tag-name">New tag name</label>
          <input id="new-tag-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="new-tag-color">Colour</label>
          <input id="new-tag-color" type="color" value={color} onInput={(e) => setColor(e.currentTarget.value)} />
          <button type="submit" disabled={created.fetching}>
            Create tag
          </button>
        </form>
      )}
      <ErrorLine message={messageOf(created.error) ?? messageOf(error)} />
      <div class="field">
        <label for="tag-search">Find by name</label>
        <input id="tag-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </div>
      <StatusLine text={`${plural(data?.tags?.total ?? 0, "tag")}.`} />
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Tags</caption>
          <thead>
            <tr>
              <th scope="col">Colour</th>
              <th scope="col">Name</th>
              <th scope="col">Memories</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {tags.map((t) => (
              <TagRow key={`${t.id}:${t.name}:${t.color}`} tag={t} onChanged={reload} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
