import type { NatsConnection } from "nats";
import { API_KEY_RE, type VerifiedKey, verifyKey } from "../../../services/contract/keys";
import { ServiceError } from "../../../services/contract/errors";
import type { Caller } from "../../../services/contract/op";
import type { Identity } from "./identity";
import type { Bus } from "../../../services/kit/bus";
import { onKeyNotice } from "./revocations";
import { TOKEN_PREFIX, type TokenClaims } from "../../../services/contract/token-format";
import { createTokenVerifier, invalidToken, tokenCallerOf } from "./tokens";

const unauthorized = () => new ServiceError("UNAUTHORIZED", "Invalid or missing API key");

/** The SHA-256 of a key of the right shape (checked before any I/O), as the keys service stores it. */
export function keyHashOf(secret: string): string {
  if (!API_KEY_RE.test(secret)) throw unauthorized();
  return Bun.CryptoHasher.hash("sha256", secret, "hex");
}

interface CacheEntry {
  /** Built once per verification, reused by every request of this key; null: it does not authenticate. */
  identity: Identity | null;
  until: number;
}

/** The one place a key's caller is made, from its verification (a token's is made of it: tokenCallerOf). */
export const keyCallerOf = (key: VerifiedKey): Caller => ({
  tenant: key.tenant,
  env: key.env,
  keyId: key.keyId,
  scopes: key.scopes,
  root: key.root,
  plan: key.plan,
});

/**
 * Verifies a key hash with the keys service, uncached: the identity it gives, or null when it does not
 * authenticate (unknown, revoked, expired). Other failures (the keys service unreachable) throw.
 */
export async function verifyHash(bus: Bus, hash: string, requestId: string): Promise<Identity | null> {
  try {
    const key = await bus.call(verifyKey, { hash }, { requestId });
    return {
      caller: keyCallerOf(key),
      label: { name: key.name, prefix: key.prefix },
      limits: { perMinute: key.perMinute, perDay: key.perDay },
      expiresAt: key.expiresAt,
      hash,
      replaced: key.replaced,
    };
  } catch (err) {
    if (!(err instanceof ServiceError) || err.code !== "UNAUTHORIZED") throw err;
    return null;
  }
}

/**
 * Resolves `Authorization: Bearer svc_…` to an identity. The shape is checked before any I/O; only the
 * SHA-256 of the key goes to the keys service; results are cached briefly (failures for less), and a
 * revocation or change broadcast over NATS evicts the entries of the secrets it names on every replica
 * at once. A NATS reconnect empties the cache, as notices sent meanwhile were missed.
 */
export function createAuthenticator(
  nc: NatsConnection,
  bus: Bus,
  opts: { ttlMs: number; negativeTtlMs: number; maxEntries: number },
) {
  const cache = new Map<string, CacheEntry>();
  // Bumped by every notice: a verification that was in flight meanwhile may predate it, so it is used
  // for its own request only and never cached.
  let notices = 0;
  const stop = onKeyNotice(nc, (notice) => {
    notices++;
    if (notice) for (const hash of notice.hashes) cache.delete(hash);
    else cache.clear();
  });

  const remember = (hash: string, entry: CacheEntry) => {
    if (cache.size >= opts.maxEntries) cache.delete(cache.keys().next().value!); // oldest first
    cache.set(hash, entry);
  };

  const tokens = createTokenVerifier(nc, bus);

  /**
   * A token's identity: its minting key's (its plan included), narrowed to the token's scopes (as far as the key
   * still holds them), restriction and expiry. The key's verification is cached and evicted by the same notices as
   * the key's own, so a token dies with a revocation or rotation of its key on every replica within 1 s.
   */
  const tokenIdentity = async (claims: TokenClaims, requestId: string): Promise<Identity> => {
    let key: Identity;
    try {
      key = await authenticator.authenticateHash(claims.kh, requestId);
    } catch (err) {
      throw err instanceof ServiceError && err.code === "UNAUTHORIZED" ? invalidToken() : err;
    }
    const { caller } = key;
    if (caller.keyId !== claims.kid || caller.tenant !== claims.tenant || key.replaced) throw invalidToken();
    const end = claims.exp * 1000;
    return {
      caller: tokenCallerOf(caller, claims),
      label: key.label,
      limits: key.limits,
      expiresAt: key.expiresAt === null ? end : Math.min(end, key.expiresAt),
      hash: key.hash,
      token: { id: claims.jti, perMinute: claims.rate_limit, origins: claims.origins },
    };
  };

  const authenticator = {
    async authenticate(header: string | null, requestId: string): Promise<Identity> {
      if (!header || !header.startsWith("Bearer ")) throw unauthorized();
      const secret = header.slice(7).trim();
      if (secret.startsWith(TOKEN_PREFIX)) return tokenIdentity(await tokens.claimsOf(secret, requestId), requestId);
      return authenticator.authenticateHash(keyHashOf(secret), requestId);
    },
    /** The identity of the key with this SHA-256 (a dashboard session holds the hash, never the key). */
    async authenticateHash(hash: string, requestId: string): Promise<Identity> {
      const now = Date.now();
      let entry = cache.get(hash);
      if (!entry || entry.until < now) {
        const seen = notices;
        const identity = await verifyHash(bus, hash, requestId);
        entry = { identity, until: now + (identity ? opts.ttlMs : opts.negativeTtlMs) };
        if (seen === notices) remember(hash, entry);
      }
      const identity = entry.identity;
      if (!identity || (identity.expiresAt !== null && identity.expiresAt <= now)) throw unauthorized();
      return identity;
    },
    /** Drops every cached entry (tests, key rotation). */
    clear: () => cache.clear(),
    close: () => {
      stop();
      tokens.close();
    },
  };
  return authenticator;
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
