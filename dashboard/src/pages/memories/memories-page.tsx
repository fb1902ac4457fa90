import { useMutation, useQuery } from "@urql/preact";
import { useReload } from "../../ui/reload";
import { useState } from "preact/hooks";
import { useCanWrite } from "../../session-context";
import { messageOf } from "../../ui/errors";
import { ErrorLine, StatusLine } from "../../ui/notice";
import { isOne, plural } from "../../ui/plural";
import { MemoryDetail } from "./detail";
import { CreateMemoryMutation, MemoriesList } from "./documents";
import { MemoryFilters, NO_FILTER, toMemoryFilter } from "./filters";
import { MemoryForm } from "./memory-form";
import { excerpt } from "../../ui/format";
import { MemoryNode } from "./tree";

const PAGE_SIZE = 20;

function countText(n: number, threads: boolean): string {
  return `${plural(n, threads ? "thread" : "memory")} ${isOne(n) ? "matches" : "match"}.`;
}

/** Memories: a filtered, paginated list of threads (expandable), one memory's detail, and creating memories. */
export function MemoriesPage() {
  const canWrite = useCanWrite();
  const [filter, setFilter] = useState(NO_FILTER);
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState<{ parent: { id: string; content: string } | null } | null>(null);
  const variables = { filter: toMemoryFilter(filter), limit: PAGE_SIZE, offset };
  const [{ data, fetching, error }, refetch] = useQuery({
    query: MemoriesList,
    variables,
    // Deletes and tag changes do not return the list's type: a filter change always asks the server.
    requestPolicy: "network-only",
  });
  const [created, create] = useMutation(CreateMemoryMutation);
  const reload = useReload(refetch);
  const page = data?.memories;
  const total = page?.total ?? 0;
  // The range of the page shown (the answer's own offset), not of the one asked for while it loads.
  const shown = page?.items.length ?? 0;

  return (
    <>
      <h1>Memories</h1>
      <MemoryFilters
        value={filter}
        onChange={(f) => {
          setFilter(f);
          setOffset(0);
        }}
      />
      {canWrite && !creating && (
        <button type="button" onClick={() => setCreating({ parent: null })}>
          New memory
        </button>
      )}
      {creating && (
        <MemoryForm
          idPrefix="new"
          title={creating.parent ? "New reply" : "New memory"}
          parentLabel={creating.parent ? excerpt(creating.parent.content, 80) : undefined}
          submitLabel="Create memory"
          busy={created.fetching}
          error={messageOf(created.error)}
          onCancel={() => setCreating(null)}
          onSubmit={async (v) => {
            const input = { ...v, parentMemoryId: creating.parent?.id };
            const res = await create({ input });
            const id = res.data?.createMemory?.id;
            if (!id) return;
            setCreating(null);
            setSelected(id);
            reload();
          }}
        />
      )}
      <ErrorLine message={messageOf(error)} />
      <StatusLine testId="memory-count" text={fetching && !page ? "Loading…" : countText(total, filter.rootsOnly)} />
      <div class="split">
        <div>
          <ul class="tree" aria-label="Memories">
            {(page?.items ?? []).map((m) => (
              <MemoryNode key={m.id} memory={m} selected={selected} onSelect={setSelected} />
            ))}
          </ul>
          <nav class="pager" aria-label="Pages of memories">
            <button
              type="button"
              class="secondary"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
            >
              Previous
            </button>
            <span>
              {shown === 0 ? "0" : `${page!.offset + 1}–${page!.offset + shown}`} of {total}
            </span>
            <button
              type="button"
              class="secondary"
              disabled={!page?.hasMore}
              onClick={() => setOffset(offset + PAGE_SIZE)}
            >
              Next
            </button>
          </nav>
        </div>
        {selected && (
          <MemoryDetail
            key={selected}
            id={selected}
            onReply={(parent) => setCreating({ parent })}
            onChanged={reload}
            onDeleted={() => {
              setSelected(null);
              reload();
            }}
          />
        )}
      </div>
    </>
  );
}
