import { useState } from "preact/hooks";

/** Copies a text with the Clipboard API, or through a selected field where that API is not allowed. */
async function copy(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.select();
    return document.execCommand("copy");
  }
}

/** A new key's secret, shown this once: a read-only field, a copy button and the warning that goes with it. */
export function SecretOnce({ secret, prefix, onDone }: { secret: string; prefix: string; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <section class="panel secret" aria-labelledby="secret-title">
      <h2 id="secret-title">The secret of key {prefix}…</h2>
      <p class="warning" role="alert">
        Copy this secret now: it is shown only this once and cannot be shown again. Store it like a password.
      </p>
      <label for="new-secret">Secret</label>
      <div class="row">
        <input id="new-secret" class="mono" readOnly value={secret} size={60} />
        <button
          type="button"
          onClick={async (e) => {
            const field = (e.currentTarget as HTMLElement).parentElement?.querySelector("input") ?? null;
            setCopied(await copy(secret, field));
          }}
        >
          Copy
        </button>
      </div>
      <p role="status">{copied === null ? "" : copied ? "Copied to the clipboard." : "Copying failed: select it."}</p>
      <button type="button" class="secondary" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
