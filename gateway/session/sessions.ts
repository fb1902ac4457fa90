import { timingSafeEqual } from "node:crypto";
import { Type as T } from "@sinclair/typebox";
import { ServiceError } from "../../services/contract/errors";
import { API_KEY_RE } from "../../services/contract/keys";
import { hasScope } from "../../services/contract/op";
import { compileValidator } from "../../services/contract/validation";
import { keyHashOf } from "../http/auth/auth";
import type { Identity } from "../http/auth/identity";
import { readJsonObject } from "../http/body/body";
import type { Admission, Guard } from "../http/exchange/guard";
import { type RateLimiter, rateLimitHeaders } from "../http/limits/rate-limit";
import { randomToken, type SessionRecord, type SessionStore } from "./store";

/** A sign-in body is one short field: nothing larger is read. */
const SIGN_IN_BODY_BYTES = 4096;

const validateSignIn = compileValidator(
  T.Object({ key: T.String({ maxLength: 200, pattern: API_KEY_RE.source }) }, { additionalProperties: false }),
);

/** The answer to a sign-in and to GET /dashboard/api/session (docs/api.md). */
export function sessionView(record: SessionRecord, identity: Identity) {
  const { caller } = identity;
  return {
    csrf_token: record.csrfToken,
    key: {
      id: caller.keyId,
      name: identity.label.name,
      prefix: identity.label.prefix,
      scopes: caller.scopes,
      tenant_id: caller.tenant,
      environment: caller.env,
      expires_at: identity.expiresAt === null ? null : new Date(identity.expiresAt).toISOString(),
    },
    read_only: !hasScope(caller, "admin"),
  };
}

export type SessionView = ReturnType<typeof sessionView>;

const noSession = () => new ServiceError("UNAUTHORIZED", "No dashboard session: sign in with an API key");
const badCsrf = () =>
  new ServiceError("FORBIDDEN", "X-CSRF-Token is missing or does not match the session's token", {
    field: "x-csrf-token",
    constraint: "match",
  });

/** The request carries the session's CSRF token (compared in constant time). */
function csrfMatches(request: Request, record: SessionRecord): boolean {
  const given = Buffer.from(request.headers.get("x-csrf-token") ?? "");
  const expected = Buffer.from(record.csrfToken);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What a session operation comes to: a value or a refusal, the headers it goes out with, the key's identity when
 * known (for usage accounting), and whether the browser's cookie is to be cleared.
 */
export type Outcome<T> =
  | { ok: true; value: T; identity: Identity | null; headers: Record<string, string> }
  | {
      ok: false;
      error: ServiceError;
      identity: Identity | null;
      headers: Record<string, string>;
      clearCookie: boolean;
    };

const refuse = (
  error: ServiceError,
  opts: { headers?: Record<string, string>; identity?: Identity | null; clearCookie?: boolean } = {},
): Outcome<never> => ({
  ok: false,
  error,
  identity: opts.identity ?? null,
  headers: opts.headers ?? {},
  clearCookie: opts.clearCookie ?? false,
});

export interface SessionDeps {
  guard: Guard;
  store: SessionStore;
  limiter: RateLimiter;
  /** Sign-in attempts allowed per client address and minute. */
  signInPerMinute: number;
}

/**
 * Dashboard sessions: a pasted key is exchanged for a random session id (the cookie); the server keeps only the
 * key's id and SHA-256 under a hash of that id. Every use passes the guard with the key, so its scopes, rate limit
 * and usage accounting apply, and a revoked or expired key ends the session at its next use.
 */
export function createSessions(deps: SessionDeps) {
  /** The session's key through the guard; a key that no longer works ends the session. */
  async function admitRecord(sessionId: string, record: SessionRecord, requestId: string): Promise<Admission> {
    const admission = await deps.guard.admitKeyHash(record.keyHash, requestId);
    if (!admission.ok && admission.error.code === "UNAUTHORIZED") await deps.store.end(sessionId);
    return admission;
  }

  return {
    /** POST /dashboard/api/session: `{key}` → a new session, if the address has attempts left and the key works. */
    async signIn(
      request: Request,
      clientAddress: string,
      requestId: string,
    ): Promise<Outcome<{ id: string; view: SessionView }>> {
      const limits = { perMinute: deps.signInPerMinute, perDay: 0 };
      const attempt = await deps.limiter.check(`signin:${clientAddress}`, limits);
      if (!attempt.allowed) {
        const error = new ServiceError("RATE_LIMITED", "Too many sign-in attempts from this address", {
          retry_after: attempt.retryAfter,
        });
        return refuse(error, { headers: rateLimitHeaders(attempt) });
      }
      const { key } = validateSignIn(await readJsonObject(request, SIGN_IN_BODY_BYTES));
      const keyHash = keyHashOf(key);
      const admission = await deps.guard.admitKeyHash(keyHash, requestId);
      if (!admission.ok) return refuse(admission.error, admission);
      const { identity, headers } = admission;
      const { caller } = identity;
      const session = { keyHash, keyId: caller.keyId, tenant: caller.tenant, csrfToken: randomToken() };
      const { id, record } = await deps.store.create(session);
      return { ok: true, value: { id, view: sessionView(record, identity) }, identity, headers };
    },

    /** GET /dashboard/api/session: the live session of this id, renewed. */
    async current(sessionId: string | null, requestId: string): Promise<Outcome<SessionView>> {
      const record = sessionId ? await deps.store.use(sessionId) : null;
      if (!sessionId || !record) return refuse(noSession(), { clearCookie: sessionId !== null });
      const admission = await admitRecord(sessionId, record, requestId);
      if (!admission.ok) {
        const clearCookie = admission.error.code === "UNAUTHORIZED";
        return refuse(admission.error, { ...admission, clearCookie });
      }
      const { identity, headers } = admission;
      return { ok: true, value: sessionView(record, identity), identity, headers };
    },

    /** DELETE /dashboard/api/session: ends it; needs the CSRF token, as every write through the cookie. */
    async end(request: Request, sessionId: string | null): Promise<Outcome<null>> {
      const record = sessionId ? await deps.store.use(sessionId) : null;
      if (!sessionId || !record) return refuse(noSession(), { clearCookie: sessionId !== null });
      if (!csrfMatches(request, record)) return refuse(badCsrf());
      await deps.store.end(sessionId);
      return { ok: true, value: null, identity: null, headers: {} };
    },

    /**
     * /graphql's credential when the request has no Authorization header: the session cookie. Every POST (the
     * method mutations ride on) must carry the session's CSRF token.
     */
    async admit(request: Request, sessionId: string, requestId: string): Promise<Admission> {
      const record = await deps.store.use(sessionId);
      if (!record) return { ok: false, identity: null, headers: {}, error: noSession() };
      if (request.method === "POST" && !csrfMatches(request, record))
        return { ok: false, identity: null, headers: {}, error: badCsrf() };
      return admitRecord(sessionId, record, requestId);
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
