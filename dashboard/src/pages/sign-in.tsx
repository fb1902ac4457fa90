import { useState } from "preact/hooks";
import { type Session, signIn } from "../session";

/** Paste a key, get a session. The key stays in this form's state only until the answer comes. */
export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const result = await signIn(key);
    setBusy(false);
    setKey("");
    if (result.ok) onSignedIn(result.session);
    else setError(result.message);
  };

  return (
    <main class="sign-in">
      <h1>Memory Storage Service</h1>
      <form onSubmit={submit} aria-describedby={error ? "sign-in-error" : undefined}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          aria-invalid={error ? "true" : undefined}
        />
        <p class="hint">
          Paste a key (svc_live_… or svc_test_…). It is exchanged for a session and not kept in this browser.
        </p>
        {error && (
          <p id="sign-in-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
