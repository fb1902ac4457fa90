import { SESSION_ID_RE } from "./store";

/** The dashboard session's cookie: a random id, never the key. */
export const SESSION_COOKIE = "dashboard_session";

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Path=/ (/graphql takes it),
 * Secure when the request came over TLS. No Max-Age: the server ends idle sessions, and the browser drops the
 * cookie when it closes.
 */
export function sessionCookie(sessionId: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** Tells the browser to drop the cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? "; Secure" : ""}`;
}

/** The session id in the request's Cookie header, if one of the right shape is there. */
export function sessionIdOf(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (SESSION_ID_RE.test(value)) return value;
  }
  return null;
}
