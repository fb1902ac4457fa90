import { useQuery } from "@urql/preact";
import { useState } from "preact/hooks";
import type { MemoryRowFragment } from "../../generated/graphql";
import { messageOf } from "../../ui/errors";
import { excerpt, when } from "../../ui/format";
import { ErrorLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { MemoryChildren } from "./documents";
import { lower } from "./options";

interface NodeProps {
  memory: MemoryRowFragment;
  selected: string | null;
  onSelect: (id: string) => void;
}

/** The children of one memory, fetched when its node is first expanded. */
function Children({ id, selected, onSelect }: { id: string; selected: string | null; onSelect: (id: string) => void }) {
  const [{ data, fetching, error }] = useQuery({ query: MemoryChildren, variables: { id } });
  if (fetching && !data) return <p class="status">Loading replies…</p>;
  const items = data?.memory?.children.items ?? [];
  return (
    <>
      <ErrorLine message={messageOf(error)} />
      <ul class="tree" aria-label="Replies">
        {items.map((m) => (
          <MemoryNode key={m.id} memory={m} selected={selected} onSelect={onSelect} />
        ))}
      </ul>
    </>
  );
}

/** One memory in the thread tree: its excerpt (as text), a button to open it, and one to expand its replies. */
export function MemoryNode({ memory, selected, onSelect }: NodeProps) {
  const [open, setOpen] = useState(false);
  const count = memory.children.total;
  return (
    <li class="node" data-memory-id={memory.id}>
      <div class={`node-row${selected === memory.id ? " selected" : ""}`}>
        {count > 0 ? (
          <button
            type="button"
            class="toggle"
            aria-expanded={open}
            aria-label={`${open ? "Hide" : "Show"} ${plural(count, "reply")}`}
            onClick={() => setOpen(!open)}
          >
            {open ? "▾" : "▸"} {count}
          </button>
        ) : (
          <span class="toggle-space" />
        )}
        <button type="button" class="link" onClick={() => onSelect(memory.id)} aria-current={selected === memory.id}>
          {excerpt(memory.content)}
        </button>
        <span class="meta">
          {lower(memory.tier)} · {lower(memory.contentType)} · {when(memory.createdAt)}
          {memory.tags.length > 0 && ` · ${memory.tags.map((t) => `#${t.name}`).join(" ")}`}
        </span>
      </div>
      {open && <Children id={memory.id} selected={selected} onSelect={onSelect} />}
    </li>
  );
}
