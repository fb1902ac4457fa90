import type { NatsConnection } from "nats";
import { API_KEY_RE, KEY_REVOKED_SUBJECT, verifyKey, type VerifiedKey } from "../../services/contract/keys";
import { ServiceError } from "../../services/contract/errors";
import type { Caller } from "../../services/contract/op";
import type { Bus } from "../../services/kit/bus";
import { decodeJson } from "../../services/kit/wire";

export interface Identity {
  caller: Caller;
  limits: { perMinute: number; perDay: number };
}

const unauthorized = () => new ServiceError("UNAUTHORIZED", "Invalid or missing API key");

interface CacheEntry {
  key: VerifiedKey | null;
  /** Built once per verification, reused by every request of this key. */
  identity: Identity | null;
  until: number;
}

/**
 * Resolves `Authorization: Bearer svc_…` to an identity. The shape is checked before any I/O; only the
 * SHA-256 of the key goes to the keys service; results are cached briefly (failures for less), and a
 * revocation broadcast over NATS evicts the entry on every replica at once.
 */
export function createAuthenticator(nc: NatsConnection, bus: Bus, opts: { ttlMs: number; negativeTtlMs: number; maxEntries: number }) {
  const cache = new Map<string, CacheEntry>();
  const sub = nc.subscribe(KEY_REVOKED_SUBJECT, {
    callback: (_err, msg) => {
      try {
        const { hash } = decodeJson(msg.data) as { hash: string };
        cache.delete(hash);
      } catch {
        cache.clear();
      }
    },
  });

  const remember = (hash: string, entry: CacheEntry) => {
    if (cache.size >= opts.maxEntries) cache.delete(cache.keys().next().value!); // oldest first
    cache.set(hash, entry);
  };

  return {
    async authenticate(header: string | null, requestId: string): Promise<Identity> {
      if (!header || !header.startsWith("Bearer ")) throw unauthorized();
      const secret = header.slice(7).trim();
      if (!API_KEY_RE.test(secret)) throw unauthorized();
      const hash = Bun.CryptoHasher.hash("sha256", secret, "hex");
      const now = Date.now();
      let entry = cache.get(hash);
      if (!entry || entry.until < now) {
        try {
          const key = await bus.call(verifyKey, { hash }, { requestId });
          const identity = {
            caller: { tenant: key.tenant, env: key.env, keyId: key.keyId, scopes: key.scopes, root: key.root },
            limits: { perMinute: key.perMinute, perDay: key.perDay },
          };
          entry = { key, identity, until: now + opts.ttlMs };
        } catch (err) {
          if (!(err instanceof ServiceError) || err.code !== "UNAUTHORIZED") throw err;
          entry = { key: null, identity: null, until: now + opts.negativeTtlMs };
        }
        remember(hash, entry);
      }
      const key = entry.key;
      if (!key || !entry.identity || (key.expiresAt !== null && key.expiresAt <= now)) throw unauthorized();
      return entry.identity;
    },
    /** Drops every cached entry (tests, key rotation). */
    clear: () => cache.clear(),
    close: () => sub.unsubscribe(),
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
