import { useState } from "preact/hooks";
import type { Scope } from "../../generated/graphql";
import { numberOrUndefined } from "../../ui/format";
import { ErrorLine } from "../../ui/notice";
import { SCOPES } from "./scopes";

export interface KeyFormValues {
  name: string;
  scopes: Scope[];
  /** Requests per minute; null = the plan's default. */
  rateLimit: number | null;
  /** End of the chosen UTC day; null = never. */
  expiresAt: string | null;
}

interface KeyFormProps {
  /** `create` asks for a name; `edit` keeps it. */
  mode: "create" | "edit";
  initial: KeyFormValues;
  busy: boolean;
  error: string | null;
  onSubmit: (values: KeyFormValues) => void;
  onCancel: () => void;
}

/** Create or edit a key: name, scopes, rate limit and expiry. The server applies the minting rules. */
export function KeyForm({ mode, initial, busy, error, onSubmit, onCancel }: KeyFormProps) {
  const [name, setName] = useState(initial.name);
  const [scopes, setScopes] = useState<Scope[]>(initial.scopes);
  const [rate, setRate] = useState(initial.rateLimit === null ? "" : String(initial.rateLimit));
  const [expiry, setExpiry] = useState(initial.expiresAt ? initial.expiresAt.slice(0, 10) : "");
  const id = `key-${mode}`;
  const toggle = (s: Scope, on: boolean) => setScopes((prev) => (on ? [...prev, s] : prev.filter((x) => x !== s)));
  const submit = (e: Event) => {
    e.preventDefault();
    onSubmit({
      name: name.trim(),
      scopes,
      rateLimit: numberOrUndefined(rate) ?? null,
      expiresAt: expiry ? `${expiry}T23:59:59.000Z` : null,
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{mode === "create" ? "New key" : `Edit ${initial.name}`}</h2>
      {mode === "create" && (
        <div class="field">
          <label for={`${id}-name`}>Name</label>
          <input id={`${id}-name`} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
      )}
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map((s) => (
          <label key={s.value} class="check">
            <input
              type="checkbox"
              checked={scopes.includes(s.value)}
              onChange={(e) => toggle(s.value, e.currentTarget.checked)}
            />
            {s.label}
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for={`${id}-rate`}>Rate limit (requests per minute; empty: the plan's)</label>
        <input id={`${id}-rate`} type="number" min={1} value={rate} onInput={(e) => setRate(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for={`${id}-expiry`}>Expires after (UTC day; empty: never)</label>
        <input id={`${id}-expiry`} type="date" value={expiry} onInput={(e) => setExpiry(e.currentTarget.value)} />
      </div>
      <ErrorLine message={error} />
      <div class="actions">
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          {mode === "create" ? "Create key" : "Save changes"}
        </button>
      </div>
    </form>
  );
}
