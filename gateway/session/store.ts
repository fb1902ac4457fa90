import { randomBytes } from "node:crypto";
import type { RedisClient } from "../../services/kit/redis-functions";
import { ServiceError } from "../../services/contract/errors";

/** What a dashboard session holds: the key it stands for (by id and SHA-256, never the secret) and its CSRF token. */
export interface SessionRecord {
  keyHash: string;
  keyId: string;
  tenant: string;
  csrfToken: string;
  /** ms since epoch */
  createdAt: number;
}

/** 32 random bytes, base64url: the cookie's value and the CSRF token. */
export const randomToken = () => randomBytes(32).toString("base64url");

export const SESSION_ID_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * `dsess:<sha256 of the session id>`: one hash per session. The id itself is only in the browser's cookie, so a
 * copy of Redis signs no one in. Single-key commands only, so no hash tag.
 */
export const sessionKey = (sessionId: string) => `dsess:${Bun.CryptoHasher.hash("sha256", sessionId, "hex")}`;

/** Redis down or failing: the caller may retry (503), as with the rate limiter. */
async function orUnavailable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch {
    throw new ServiceError("SERVICE_UNAVAILABLE", "Session store unavailable, retry shortly");
  }
}

/**
 * The gateway's dashboard sessions in Redis; each expires after `idleMs` without use (every use renews it).
 * Failures of Redis are SERVICE_UNAVAILABLE.
 */
export function createSessionStore(redis: RedisClient, opts: { idleMs: number }) {
  return {
    /** Stores a new session; returns its id, for the cookie. */
    async create(record: Omit<SessionRecord, "createdAt">): Promise<{ id: string; record: SessionRecord }> {
      const id = randomToken();
      const full: SessionRecord = { ...record, createdAt: Date.now() };
      const key = sessionKey(id);
      const fields = { kh: full.keyHash, kid: full.keyId, t: full.tenant, csrf: full.csrfToken, c: full.createdAt };
      await orUnavailable(redis.multi().hset(key, fields).pexpire(key, opts.idleMs).exec());
      return { id, record: full };
    },
    /** The live session of this id, its idle time restarted; null when it is unknown, ended or expired. */
    async use(sessionId: string): Promise<SessionRecord | null> {
      if (!SESSION_ID_RE.test(sessionId)) return null;
      const key = sessionKey(sessionId);
      const replies = await orUnavailable(redis.multi().hgetall(key).pexpire(key, opts.idleMs).exec());
      const [err, h] = replies?.[0] ?? [null, {}];
      if (err) throw new ServiceError("SERVICE_UNAVAILABLE", "Session store unavailable, retry shortly");
      const hash = h as Record<string, string>;
      if (!hash.kh || !hash.csrf) return null;
      return { keyHash: hash.kh, keyId: hash.kid!, tenant: hash.t!, csrfToken: hash.csrf, createdAt: Number(hash.c) };
    },
    /** Ends a session: its id then works nowhere. */
    async end(sessionId: string): Promise<void> {
      if (SESSION_ID_RE.test(sessionId)) await orUnavailable(redis.del(sessionKey(sessionId)));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
