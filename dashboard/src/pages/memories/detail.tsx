import { useMutation, useQuery } from "@urql/preact";
import { useState } from "preact/hooks";
import { useCanWrite } from "../../session-context";
import { ConfirmDialog } from "../../ui/dialog";
import { messageOf } from "../../ui/errors";
import { when } from "../../ui/format";
import { ErrorLine } from "../../ui/notice";
import { isOne, noun } from "../../ui/plural";
import { DeleteMemoryMutation, MemoryDetailQuery, UpdateMemoryMutation } from "./documents";
import { lower } from "./options";
import { MemoryForm } from "./memory-form";
import { MemoryTags } from "./memory-tags";

interface DetailProps {
  id: string;
  onReply: (parent: { id: string; content: string }) => void;
  onDeleted: () => void;
  onChanged: () => void;
}

/** What a delete removes, said before it happens. */
function consequenceOf(cascade: boolean, replies: number): string {
  const direct = `${replies.toLocaleString("en")} direct ${noun(replies, "reply")}`;
  if (cascade) return `This memory and its whole subtree (${direct} and every memory below them) are deleted.`;
  if (replies === 0) return "This memory is deleted. It has no replies.";
  return `This memory is deleted; its ${direct} ${isOne(replies) ? "becomes a root" : "become roots"}.`;
}

interface DeleteProps {
  id: string;
  replies: number;
  onDone: () => void;
  onCancel: () => void;
}

/** The deletion dialog: the consequence of each choice is stated before anything is deleted. */
function DeleteDialog({ id, replies, onDone, onCancel }: DeleteProps) {
  const [cascade, setCascade] = useState(false);
  const [state, remove] = useMutation(DeleteMemoryMutation);
  const consequence = consequenceOf(cascade, replies);
  const confirm = async () => {
    const res = await remove({ id, cascade });
    if (res.data?.deleteMemory?.deleted) onDone();
  };
  return (
    <ConfirmDialog
      title="Delete this memory?"
      confirmLabel="Delete"
      danger
      busy={state.fetching}
      onConfirm={confirm}
      onCancel={onCancel}
    >
      <label class="check">
        <input type="checkbox" checked={cascade} onChange={(e) => setCascade(e.currentTarget.checked)} />
        Also delete every reply below it (cascade)
      </label>
      <p data-testid="delete-consequence">{consequence} This cannot be undone.</p>
      <ErrorLine message={messageOf(state.error)} />
    </ConfirmDialog>
  );
}

/** One memory: content as text, its metadata, tags and entities, and the writes a session may make to it. */
export function MemoryDetail({ id, onReply, onDeleted, onChanged }: DetailProps) {
  const canWrite = useCanWrite();
  const [{ data, error }, refetch] = useQuery({ query: MemoryDetailQuery, variables: { id } });
  const [mode, setMode] = useState<"view" | "edit" | "delete">("view");
  const [updated, update] = useMutation(UpdateMemoryMutation);
  const m = data?.memory;
  if (!m) return <ErrorLine message={messageOf(error)} />;
  const reload = () => {
    refetch({ requestPolicy: "network-only" });
    onChanged();
  };
  return (
    <section class="panel detail" aria-labelledby="detail-title" data-testid="memory-detail">
      <h2 id="detail-title">Memory</h2>
      {mode === "edit" ? (
        <MemoryForm
          idPrefix="edit"
          title="Edit memory"
          initial={m}
          submitLabel="Save"
          busy={updated.fetching}
          error={messageOf(updated.error)}
          onCancel={() => setMode("view")}
          onSubmit={async (v) => {
            const res = await update({ id, input: { ...v, metadata: v.metadata ?? {} } });
            if (res.data?.updateMemory) {
              setMode("view");
              reload();
            }
          }}
        />
      ) : (
        <p class="content">{m.content}</p>
      )}
      <dl class="facts">
        <dt>Id</dt>
        <dd class="mono">{m.id}</dd>
        <dt>Type</dt>
        <dd>
          {lower(m.contentType)} · {lower(m.tier)} tier · {lower(m.memoryNature)}
        </dd>
        <dt>Parent</dt>
        <dd class="mono">{m.parentMemoryId ?? "none (a root)"}</dd>
        <dt>Replies</dt>
        <dd>{m.children.total}</dd>
        <dt>Created</dt>
        <dd>{when(m.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{when(m.updatedAt)}</dd>
        <dt>Occurred</dt>
        <dd>{when(m.occurredAt)}</dd>
        <dt>Expires</dt>
        <dd>{m.expiresAt ? when(m.expiresAt) : "never"}</dd>
        {m.externalId && (
          <>
            <dt>External id</dt>
            <dd class="mono">{m.externalId}</dd>
          </>
        )}
        <dt>Entities</dt>
        <dd>{m.entities.length ? m.entities.map((e) => `${e.name} (${lower(e.type)})`).join(", ") : "none"}</dd>
      </dl>
      <h3>Metadata</h3>
      <pre class="mono metadata">{JSON.stringify(m.metadata, null, 2)}</pre>
      <MemoryTags memoryId={m.id} tags={m.tags} onChanged={reload} />
      {canWrite && mode === "view" && (
        <div class="actions">
          <button type="button" onClick={() => onReply({ id: m.id, content: m.content })}>
            Add reply
          </button>
          <button type="button" class="secondary" onClick={() => setMode("edit")}>
            Edit
          </button>
          <button type="button" class="danger" onClick={() => setMode("delete")}>
            Delete
          </button>
        </div>
      )}
      {mode === "delete" && (
        <DeleteDialog id={m.id} replies={m.children.total} onCancel={() => setMode("view")} onDone={onDeleted} />
      )}
    </section>
  );
}
