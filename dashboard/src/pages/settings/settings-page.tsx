import { useMutation, useQuery } from "@urql/preact";
import { useEffect, useState } from "preact/hooks";
import { messageOf } from "../../ui/errors";
import { ErrorLine, StatusLine } from "../../ui/notice";
import { TenantCorsQuery, UpdateTenantCorsMutation } from "./documents";

/** One origin per line, blank lines and spaces dropped. */
const originsOf = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * Settings: the tenant's CORS allow-list, the browser origins that may use a token naming no origins of its own
 * (`PATCH /v1/tenant` `cors.allowed_origins`).
 */
export function SettingsPage() {
  const [{ data, error }] = useQuery({ query: TenantCorsQuery, requestPolicy: "network-only" });
  const [saved, save] = useMutation(UpdateTenantCorsMutation);
  const [text, setText] = useState("");
  const [done, setDone] = useState(false);
  const stored = data?.tenant?.cors.allowedOrigins;
  useEffect(() => {
    if (stored) setText(stored.join("\n"));
  }, [stored]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(false);
    const res = await save({ origins: originsOf(text) });
    if (!res.error) {
      setText(res.data?.updateTenant?.cors.allowedOrigins.join("\n") ?? "");
      setDone(true);
    }
  };

  return (
    <>
      <h1>Settings</h1>
      <ErrorLine message={messageOf(error)} />
      <form onSubmit={submit} aria-label="Browser access">
        <h2>Browser access (CORS)</h2>
        <p>
          Origins allowed to call the API with a browser token that names no origins of its own
          {data?.tenant ? ` (${data.tenant.environment.toLowerCase()} environment)` : ""}. One per line, such as
          https://app.example.com; none allows no origin.
        </p>
        <div class="field">
          <label for="cors-origins">Allowed origins</label>
          <textarea id="cors-origins" rows={5} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={saved.fetching}>
          Save
        </button>
      </form>
      <ErrorLine message={messageOf(saved.error)} />
      {done && <StatusLine testId="cors-saved" text="Saved: the allow-list holds on every gateway within 2 seconds." />}
    </>
  );
}
