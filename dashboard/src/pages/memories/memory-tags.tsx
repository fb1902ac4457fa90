import { useMutation, useQuery } from "@urql/preact";
import { useState } from "preact/hooks";
import { useCanWrite } from "../../session-context";
import { messageOf } from "../../ui/errors";
import { ErrorLine } from "../../ui/notice";
import { AttachTagsMutation, DetachTagMutation, FilterOptions } from "./documents";

interface TagsProps {
  memoryId: string;
  tags: { id: string; name: string }[];
  onChanged: () => void;
}

/** A memory's tags: each with a detach button, and a tag picker to attach another. */
export function MemoryTags({ memoryId, tags, onChanged }: TagsProps) {
  const canWrite = useCanWrite();
  const [{ data }] = useQuery({ query: FilterOptions });
  const [pick, setPick] = useState("");
  const [attached, attach] = useMutation(AttachTagsMutation);
  const [detached, detach] = useMutation(DetachTagMutation);
  const available = (data?.tags?.items ?? []).filter((t) => !tags.some((x) => x.id === t.id));
  return (
    <>
      <h3>Tags</h3>
      <ul class="chips" aria-label="Tags of this memory">
        {tags.length === 0 && <li>none</li>}
        {tags.map((t) => (
          <li key={t.id} class="chip">
            #{t.name}
            {canWrite && (
              <button
                type="button"
                class="small secondary"
                aria-label={`Detach tag ${t.name}`}
                onClick={async () => {
                  const res = await detach({ memoryId, tagId: t.id });
                  if (res.data?.detachTag) onChanged();
                }}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {canWrite && (
        <form
          class="row"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!pick) return;
            const res = await attach({ memoryId, tagIds: [pick] });
            if (res.data?.attachTags) {
              setPick("");
              onChanged();
            }
          }}
        >
          <label for="attach-tag">Attach tag</label>
          <select id="attach-tag" value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
            <option value="">Choose a tag</option>
            {available.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
          <button type="submit" class="small" disabled={!pick || attached.fetching}>
            Attach
          </button>
        </form>
      )}
      <ErrorLine message={messageOf(attached.error) ?? messageOf(detached.error)} />
    </>
  );
}
