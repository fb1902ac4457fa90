/** The dashboard's session API (served by the gateway at /dashboard/api/session; docs/api.md). */

export interface SessionKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  tenant_id: string;
  environment: "live" | "test";
  expires_at: string | null;
}

export interface Session {
  csrf_token: string;
  key: SessionKey;
  /** The key lacks the `admin` scope: Keys, Usage and Settings are hidden (the server refuses them anyway). */
  read_only: boolean;
}

export type SignInResult = { ok: true; session: Session } | { ok: false; message: string };

const SESSION_URL = "/dashboard/api/session";

interface ErrorEnvelope {
  error?: { code?: string; message?: string; details?: { retry_after?: number } };
}

/** What to tell a person whose sign-in was refused. */
function refusal(status: number, body: ErrorEnvelope): string {
  const code = body.error?.code;
  if (code === "VALIDATION_ERROR") return "That is not an API key. Keys look like svc_live_… or svc_test_….";
  if (code === "UNAUTHORIZED") return "That key is not valid: it may have been revoked or have expired.";
  if (code === "RATE_LIMITED") {
    const wait = body.error?.details?.retry_after;
    return `Too many sign-in attempts. Try again${wait ? ` in ${wait} s` : " later"}.`;
  }
  return `Signing in failed (${body.error?.message ?? `HTTP ${status}`}).`;
}

async function bodyOf(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return {};
  }
}

/** Exchanges a pasted key for a session cookie; the key itself is not kept anywhere in the browser. */
export async function signIn(key: string): Promise<SignInResult> {
  let res: Response;
  try {
    res = await fetch(SESSION_URL, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key: key.trim() }),
    });
  } catch {
    return { ok: false, message: "The server cannot be reached." };
  }
  const body = await bodyOf(res);
  if (res.ok) return { ok: true, session: (body as { data: Session }).data };
  return { ok: false, message: refusal(res.status, body as ErrorEnvelope) };
}

/** The session of this browser's cookie, or null when there is none (or it ended). */
export async function currentSession(): Promise<Session | null> {
  const res = await fetch(SESSION_URL, { credentials: "same-origin" });
  if (!res.ok) return null;
  return ((await bodyOf(res)) as { data: Session }).data;
}

/** Ends the session on the server; the cookie is cleared by the answer. */
export async function signOut(session: Session): Promise<void> {
  await fetch(SESSION_URL, {
    method: "DELETE",
    credentials: "same-origin",
    headers: { "X-CSRF-Token": session.csrf_token },
  });
}
