import type { NatsConnection } from "nats";
import { API_KEY_RE, verifyKey, type VerifiedKey } from "../../services/contract/keys";
import { ServiceError } from "../../services/contract/errors";
import type { Caller } from "../../services/contract/op";
import type { Bus } from "../../services/kit/bus";
import { onRevocation } from "./revocations";

export interface Identity {
  caller: Caller;
  /** The key's name and the first characters of its secret, for people to recognise it (the dashboard). */
  label: { name: string; prefix: string };
  limits: { perMinute: number; perDay: number };
  /** When the key stops working (ms since epoch); null = never. Open streams end then. */
  expiresAt: number | null;
}

const unauthorized = () => new ServiceError("UNAUTHORIZED", "Invalid or missing API key");

/** The SHA-256 of a key of the right shape (checked before any I/O), as the keys service stores it. */
export function keyHashOf(secret: string): string {
  if (!API_KEY_RE.test(secret)) throw unauthorized();
  return Bun.CryptoHasher.hash("sha256", secret, "hex");
}

interface CacheEntry {
  key: VerifiedKey | null;
  /** Built once per verification, reused by every request of this key. */
  identity: Identity | null;
  until: number;
}

/**
 * Resolves `Authorization: Bearer svc_…` to an identity. The shape is checked before any I/O; only the
 * SHA-256 of the key goes to the keys service; results are cached briefly (failures for less), and a
 * revocation broadcast over NATS evicts the entry on every replica at once. A NATS reconnect empties
 * the cache, as revocations sent meanwhile were missed.
 */
export function createAuthenticator(
  nc: NatsConnection,
  bus: Bus,
  opts: { ttlMs: number; negativeTtlMs: number; maxEntries: number },
) {
  const cache = new Map<string, CacheEntry>();
  // Bumped by every revocation: a verification that was in flight meanwhile may predate it, so it is
  // used for its own request only and never cached.
  let revocations = 0;
  const stop = onRevocation(nc, (key) => {
    revocations++;
    if (key) cache.delete(key.hash);
    else cache.clear();
  });

  const remember = (hash: string, entry: CacheEntry) => {
    if (cache.size >= opts.maxEntries) cache.delete(cache.keys().next().value!); // oldest first
    cache.set(hash, entry);
  };

  const authenticator = {
    async authenticate(header: string | null, requestId: string): Promise<Identity> {
      if (!header || !header.startsWith("Bearer ")) throw unauthorized();
      return authenticator.authenticateHash(keyHashOf(header.slice(7).trim()), requestId);
    },
    /** The identity of the key with this SHA-256 (a dashboard session holds the hash, never the key). */
    async authenticateHash(hash: string, requestId: string): Promise<Identity> {
      const now = Date.now();
      let entry = cache.get(hash);
      if (!entry || entry.until < now) {
        const seen = revocations;
        try {
          const key = await bus.call(verifyKey, { hash }, { requestId });
          const identity = {
            caller: { tenant: key.tenant, env: key.env, keyId: key.keyId, scopes: key.scopes, root: key.root },
            label: { name: key.name, prefix: key.prefix },
            limits: { perMinute: key.perMinute, perDay: key.perDay },
            expiresAt: key.expiresAt,
          };
          entry = { key, identity, until: now + opts.ttlMs };
        } catch (err) {
          if (!(err instanceof ServiceError) || err.code !== "UNAUTHORIZED") throw err;
          entry = { key: null, identity: null, until: now + opts.negativeTtlMs };
        }
        if (seen === revocations) remember(hash, entry);
      }
      const key = entry.key;
      if (!key || !entry.identity || (key.expiresAt !== null && key.expiresAt <= now)) throw unauthorized();
      return entry.identity;
    },
    /** Drops every cached entry (tests, key rotation). */
    clear: () => cache.clear(),
    close: stop,
  };
  return authenticator;
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
