import { useState } from "preact/hooks";
import type { ContentType, Tier } from "../../generated/graphql";
import { jsonObject } from "../../ui/format";
import { ErrorLine } from "../../ui/notice";
import { CONTENT_TYPES, lower, TIERS } from "./options";

export interface MemoryFormValues {
  content: string;
  contentType: ContentType;
  tier: Tier;
  metadata: Record<string, unknown> | undefined;
}

interface MemoryFormProps {
  /** Tells this form's field ids from another open one's (a new reply while editing). */
  idPrefix: string;
  title: string;
  initial?: { content: string; contentType: ContentType; tier: Tier; metadata?: unknown };
  /** For a new reply: the memory it goes under. */
  parentLabel?: string;
  submitLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: (v: MemoryFormValues) => void;
  onCancel: () => void;
}

/** Create or edit a memory: content, type, tier and metadata (a JSON object). */
export function MemoryForm({
  idPrefix,
  title,
  initial,
  parentLabel,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: MemoryFormProps) {
  const [content, setContent] = useState(initial?.content ?? "");
  const [contentType, setContentType] = useState<ContentType>(initial?.contentType ?? "TEXT");
  const [tier, setTier] = useState<Tier>(initial?.tier ?? "MEDIUM");
  const [metadata, setMetadata] = useState(
    initial?.metadata && Object.keys(initial.metadata).length ? JSON.stringify(initial.metadata, null, 2) : "",
  );
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    try {
      onSubmit({ content, contentType, tier, metadata: jsonObject(metadata) });
      setInvalid(null);
    } catch (err) {
      setInvalid((err as Error).message);
    }
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby={`${idPrefix}-title`}>
      <h2 id={`${idPrefix}-title`}>{title}</h2>
      {parentLabel && <p class="hint">Reply to: {parentLabel}</p>}
      <div class="field">
        <label for={`${idPrefix}-content`}>Content</label>
        <textarea
          id={`${idPrefix}-content`}
          required
          rows={4}
          value={content}
          onInput={(e) => setContent(e.currentTarget.value)}
        />
      </div>
      <div class="row">
        <div class="field">
          <label for={`${idPrefix}-type`}>Content type</label>
          <select
            id={`${idPrefix}-type`}
            value={contentType}
            onChange={(e) => setContentType(e.currentTarget.value as ContentType)}
          >
            {CONTENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {lower(t)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={`${idPrefix}-tier`}>Tier</label>
          <select id={`${idPrefix}-tier`} value={tier} onChange={(e) => setTier(e.currentTarget.value as Tier)}>
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {lower(t)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div class="field">
        <label for={`${idPrefix}-metadata`}>Metadata (a JSON object, optional)</label>
        <textarea
          id={`${idPrefix}-metadata`}
          class="mono"
          rows={3}
          value={metadata}
          onInput={(e) => setMetadata(e.currentTarget.value)}
        />
      </div>
      <ErrorLine message={invalid ?? error} />
      <div class="actions">
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
