import { useMutation, useQuery } from "@urql/preact";
import { useReload } from "../../ui/reload";
import type { KeysListQuery } from "../../generated/graphql";
import { useState } from "preact/hooks";
import { ConfirmDialog } from "../../ui/dialog";
import { messageOf } from "../../ui/errors";
import { when } from "../../ui/format";
import { ErrorLine, StatusLine } from "../../ui/notice";
import { plural } from "../../ui/plural";
import { CreateKeyMutation, KeysList, RevokeKeyMutation, RotateKeyMutation, UpdateKeyMutation } from "./documents";
import { KeyForm, type KeyFormValues } from "./key-form";
import { scopeLabel, statusOf } from "./scopes";
import { SecretOnce } from "./secret-once";

type Key = NonNullable<KeysListQuery["keys"]>["items"][number];
const useKeys = () => useQuery({ query: KeysList, requestPolicy: "cache-and-network" });

type Mode =
  | { kind: "list" }
  | { kind: "create" }
  | { kind: "edit"; key: Key }
  | { kind: "rotate"; key: Key }
  | { kind: "revoke"; key: Key }
  | { kind: "secret"; secret: string; prefix: string };

const NEW_KEY: KeyFormValues = {
  name: "",
  scopes: ["MEMORIES_READ", "MEMORIES_WRITE", "SEARCH_READ"],
  rateLimit: null,
  expiresAt: null,
};

/** Keys: the tenant's keys, and creating, editing, rotating and revoking them. */
export function KeysPage() {
  const [{ data, fetching, error }, refetch] = useKeys();
  const [mode, setMode] = useState<Mode>({ kind: "list" });
  const [created, createKey] = useMutation(CreateKeyMutation);
  const [updated, updateKey] = useMutation(UpdateKeyMutation);
  const [rotated, rotateKey] = useMutation(RotateKeyMutation);
  const [revoked, revokeKey] = useMutation(RevokeKeyMutation);
  const [grace, setGrace] = useState("0");
  const reload = useReload(refetch);

  const create = async (v: KeyFormValues) => {
    // Absent, not null, on creation: the defaults (the plan's limit, the minting key's expiry) apply.
    const input = {
      name: v.name,
      scopes: v.scopes,
      rateLimit: v.rateLimit ?? undefined,
      expiresAt: v.expiresAt ?? undefined,
    };
    const res = await createKey({ input });
    if (!res.data?.createKey) return;
    setMode({ kind: "secret", secret: res.data.createKey.key, prefix: res.data.createKey.apiKey.prefix });
    reload();
  };
  const edit = async (key: Key, v: KeyFormValues) => {
    const input: Record<string, unknown> = { scopes: v.scopes };
    if (v.rateLimit !== (key.rateLimit ?? null)) input.rateLimit = v.rateLimit;
    if (v.expiresAt?.slice(0, 10) !== key.expiresAt?.slice(0, 10)) input.expiresAt = v.expiresAt;
    const res = await updateKey({ id: key.id, input });
    if (!res.data?.updateKey) return;
    setMode({ kind: "list" });
    reload();
  };
  const rotate = async (key: Key) => {
    const res = await rotateKey({ id: key.id, graceSeconds: Number(grace) || 0 });
    if (!res.data?.rotateKey) return;
    setMode({ kind: "secret", secret: res.data.rotateKey.key, prefix: res.data.rotateKey.apiKey.prefix });
    reload();
  };
  const revoke = async (key: Key) => {
    const res = await revokeKey({ id: key.id });
    if (!res.data?.revokeKey) return;
    setMode({ kind: "list" });
    reload();
  };

  const keys = data?.keys?.items ?? [];
  return (
    <>
      <h1>Keys</h1>
      {mode.kind === "list" && (
        <button type="button" onClick={() => setMode({ kind: "create" })}>
          New key
        </button>
      )}
      {mode.kind === "create" && (
        <KeyForm
          mode="create"
          initial={NEW_KEY}
          busy={created.fetching}
          error={messageOf(created.error)}
          onSubmit={create}
          onCancel={() => setMode({ kind: "list" })}
        />
      )}
      {mode.kind === "edit" && (
        <KeyForm
          mode="edit"
          initial={{ ...mode.key, rateLimit: mode.key.rateLimit ?? null, expiresAt: mode.key.expiresAt ?? null }}
          busy={updated.fetching}
          error={messageOf(updated.error)}
          onSubmit={(v) => edit(mode.key, v)}
          onCancel={() => setMode({ kind: "list" })}
        />
      )}
      {mode.kind === "secret" && (
        <SecretOnce secret={mode.secret} prefix={mode.prefix} onDone={() => setMode({ kind: "list" })} />
      )}
      {mode.kind === "rotate" && (
        <ConfirmDialog
          title={`Rotate ${mode.key.name}?`}
          confirmLabel="Rotate"
          busy={rotated.fetching}
          onConfirm={() => rotate(mode.key)}
          onCancel={() => setMode({ kind: "list" })}
        >
          <p>The key gets a new secret; its id, name, scopes and limits stay. The old secret stops working:</p>
          <label for="grace">Old secret keeps working for (seconds, up to 86400)</label>
          <input
            id="grace"
            type="number"
            min={0}
            max={86400}
            value={grace}
            onInput={(e) => setGrace(e.currentTarget.value)}
          />
          <ErrorLine message={messageOf(rotated.error)} />
        </ConfirmDialog>
      )}
      {mode.kind === "revoke" && (
        <ConfirmDialog
          title={`Revoke ${mode.key.name}?`}
          confirmLabel="Revoke"
          danger
          busy={revoked.fetching}
          onConfirm={() => revoke(mode.key)}
          onCancel={() => setMode({ kind: "list" })}
        >
          <p>
            Every request with key {mode.key.prefix}… fails from now on, on every gateway within a second. This cannot
            be undone.
          </p>
          <ErrorLine message={messageOf(revoked.error)} />
        </ConfirmDialog>
      )}
      <ErrorLine message={messageOf(error)} />
      {fetching && !data ? (
        <StatusLine text="Loading keys…" />
      ) : (
        <StatusLine text={`${plural(data?.keys?.total ?? 0, "key")}.`} />
      )}
      <div class="table-wrap">
        <table>
          <caption class="sr-only">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Scopes</th>
              <th scope="col">Plan</th>
              <th scope="col">Limit / min</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => {
              const status = statusOf(k);
              return (
                <tr key={k.id} data-key-id={k.id}>
                  <td>{k.name}</td>
                  <td class="mono">{k.prefix}…</td>
                  <td>{k.scopes.map(scopeLabel).join(", ")}</td>
                  <td>{k.plan.toLowerCase()}</td>
                  <td>{k.rateLimit ?? "plan default"}</td>
                  <td>{when(k.lastUsedAt)}</td>
                  <td>{k.expiresAt ? when(k.expiresAt) : "never"}</td>
                  <td>
                    <span class={`status-${status}`}>{status}</span>
                  </td>
                  <td class="actions-cell">
                    {status === "active" && (
                      <>
                        <button
                          type="button"
                          class="small"
                          aria-label={`Edit ${k.name}`}
                          onClick={() => setMode({ kind: "edit", key: k })}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          class="small"
                          aria-label={`Rotate ${k.name}`}
                          onClick={() => setMode({ kind: "rotate", key: k })}
                        >
                          Rotate
                        </button>
                        <button
                          type="button"
                          class="small danger"
                          aria-label={`Revoke ${k.name}`}
                          onClick={() => setMode({ kind: "revoke", key: k })}
                        >
                          Revoke
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
