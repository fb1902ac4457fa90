import { createGraphiQLFetcher, type Fetcher } from "@graphiql/toolkit";
import { GraphQLError } from "graphql";
import { currentSession, type Session } from "../src/session";

/**
 * What GraphiQL's requests are sent with: the dashboard's session (its cookie and CSRF token, as the dashboard's
 * own client sends them), a key typed into this page, or nothing yet. A key is held in this page's memory only:
 * a secret key in localStorage would outlive the tab and be readable by any script of the origin, and the
 * dashboard's design keeps no key in the browser at all.
 */
export type Credential =
  | { kind: "session"; session: Session }
  | { kind: "key"; key: string }
  | { kind: "none"; notice?: string };

/**
 * The credential the page opens with. The server marks the page when the request carried a session cookie; only
 * then is the session asked for, so a visitor without one sees no refused request. A cookie whose session has
 * ended gives the prompt, with a word on why.
 */
export async function initialCredential(cookieSeen: boolean): Promise<Credential> {
  if (!cookieSeen) return { kind: "none" };
  const session = await currentSession().catch(() => null);
  if (session) return { kind: "session", session };
  return { kind: "none", notice: "Your dashboard session has ended: enter an API key, or sign in again." };
}

/** Why a credential stopped working, told to the page so it can ask for another. */
export type OnRefused = (notice: string) => void;

const REFUSED: Record<Credential["kind"], string> = {
  session: "Your dashboard session has ended: enter an API key, or sign in on the dashboard again.",
  key: "That key was refused: it may be mistyped, revoked or expired. Enter another one.",
  none: "",
};

/** The answer GraphiQL shows when Run is pressed before any credential is there: nothing is sent. */
const NO_CREDENTIAL = {
  errors: [new GraphQLError("Enter an API key above (or sign in on the dashboard) to run queries.")],
};

/** Whether the 403 answers a CSRF token the session no longer has (the cookie was replaced by a newer sign-in). */
async function staleCsrfToken(res: Response): Promise<boolean> {
  if (res.status !== 403) return false;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { error?: { details?: { field?: string } } } | null;
  return body?.error?.details?.field === "x-csrf-token";
}

/**
 * GraphiQL's fetcher for one credential. An Authorization header typed into GraphiQL's headers editor wins, as
 * on the server (the cookie is then ignored). A 401 on our own credential tells the page to ask for another.
 */
export function fetcherFor(credential: Credential, onRefused: OnRefused): Fetcher {
  let session = credential.kind === "session" ? credential.session : null;
  const send = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const typed = headers.has("authorization");
    if (!typed && credential.kind === "key") headers.set("Authorization", `Bearer ${credential.key}`);
    if (!typed && session) headers.set("X-CSRF-Token", session.csrf_token);
    let res = await fetch(url, { ...init, headers, credentials: "same-origin" });
    if (!typed && session && (await staleCsrfToken(res))) {
      // Signed in again in another tab: this browser's cookie now names a newer session, with its own token.
      session = await currentSession().catch(() => null);
      if (session) {
        headers.set("X-CSRF-Token", session.csrf_token);
        res = await fetch(url, { ...init, headers, credentials: "same-origin" });
      }
    }
    if (!typed && res.status === 401) onRefused(REFUSED[credential.kind]);
    return res;
  };
  const fetcher = createGraphiQLFetcher({ url: "/graphql", fetch: send });
  if (credential.kind !== "none") return fetcher;
  return (params, opts) => {
    const typed = Object.keys(opts?.headers ?? {}).some((h) => h.toLowerCase() === "authorization");
    return typed ? fetcher(params, opts) : Promise.resolve(NO_CREDENTIAL);
  };
}
