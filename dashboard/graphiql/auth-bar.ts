import { createElement as h, type FormEvent, useState } from "react";
import type { Credential } from "./credential";

/** How much of a key the bar shows: its kind and the start of its prefix, never the secret part. */
const shown = (key: string) => `${key.slice(0, 12)}…`;

/**
 * The line above GraphiQL that says what its requests are sent with: the dashboard's session, a key held by this
 * page, or (with neither) a short form asking for a key.
 */
export function AuthBar({ credential, onChange }: { credential: Credential; onChange: (c: Credential) => void }) {
  if (credential.kind === "session") {
    const { key, read_only } = credential.session;
    return h(
      "div",
      { className: "graphiql-auth", role: "status" },
      h("span", null, `Signed in with the dashboard's session: key ${key.name} (${key.prefix}…)`),
      read_only ? h("span", null, " · read-only") : null,
      h("a", { href: "/dashboard" }, "Dashboard"),
    );
  }
  if (credential.kind === "key") {
    return h(
      "div",
      { className: "graphiql-auth", role: "status" },
      h(
        "span",
        null,
        `Using a key held by this page only (${shown(credential.key)}): it is gone when the page closes.`,
      ),
      h("button", { type: "button", onClick: () => onChange({ kind: "none" }) }, "Forget key"),
    );
  }
  return h(KeyForm, { notice: credential.notice, onKey: (key: string) => onChange({ kind: "key", key }) });
}

function KeyForm({ notice, onKey }: { notice?: string; onKey: (key: string) => void }) {
  const [value, setValue] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const key = value.trim();
    if (key) onKey(key);
  };
  return h(
    "form",
    { className: "graphiql-auth", onSubmit: submit },
    h("label", { htmlFor: "graphiql-key" }, "API key"),
    h("input", {
      id: "graphiql-key",
      type: "password",
      autoComplete: "off",
      required: true,
      placeholder: "svc_live_… or svc_test_…",
      value,
      onChange: (e: { currentTarget: HTMLInputElement }) => setValue(e.currentTarget.value),
    }),
    h("button", { type: "submit" }, "Use key"),
    h(
      "span",
      { role: "status" },
      notice ?? "Enter a key to load the schema and run queries (kept in this page only), or ",
      notice ? null : h("a", { href: "/dashboard" }, "sign in on the dashboard"),
      notice ? null : " and open this page again.",
    ),
  );
}
