import { ServiceError, toServiceError } from "../../services/contract/errors";
import { hasScope, type Scope } from "../../services/contract/op";
import type { Authenticator, Identity } from "./auth";
import { rateLimitHeaders, type RateLimiter } from "./rate-limit";

export type Admission =
  | { ok: true; identity: Identity; headers: Record<string, string> }
  | { ok: false; identity: Identity | null; error: ServiceError; headers: Record<string, string> };

/**
 * The one door every API request passes (REST, GraphQL and the dashboard's session alike): authenticate, then
 * count the request against the key's sliding windows, and a browser token's request against its own too.
 * Scopes are checked per operation with `requireScope`.
 */
export function createGuard(auth: Authenticator, limiter: RateLimiter) {
  async function admitIdentity(identify: () => Promise<Identity>): Promise<Admission> {
    let identity: Identity | null = null;
    try {
      identity = await identify();
      // A token's own window first: a request it refuses does not count against the key's budget.
      const own = identity.token?.perMinute;
      const byToken = own ? await limiter.check(`tok:${identity.token!.id}`, { perMinute: own, perDay: 0 }) : null;
      const result =
        byToken && !byToken.allowed ? byToken : await limiter.check(identity.caller.keyId, identity.limits);
      // The headers tell of the window that binds: the refusing one, else the one with less left.
      const binding = byToken && byToken.remaining < result.remaining ? byToken : result;
      const headers = rateLimitHeaders(binding);
      if (!result.allowed) {
        return {
          ok: false,
          identity,
          headers,
          error: new ServiceError("RATE_LIMITED", "Rate limit exceeded, retry after the reset time", {
            retry_after: result.retryAfter,
          }),
        };
      }
      return { ok: true, identity, headers };
    } catch (err) {
      return { ok: false, identity, headers: {}, error: toServiceError(err) };
    }
  }

  return {
    /** A request carrying `Authorization: Bearer <key>`. */
    admit: (request: Request, requestId: string): Promise<Admission> =>
      admitIdentity(() => auth.authenticate(request.headers.get("authorization"), requestId)),
    /** A request on behalf of the key with this SHA-256 (a dashboard session's key). */
    admitKeyHash: (hash: string, requestId: string): Promise<Admission> =>
      admitIdentity(() => auth.authenticateHash(hash, requestId)),
  };
}

export type Guard = ReturnType<typeof createGuard>;

export function requireScope(identity: Identity, scope: Scope | undefined): void {
  if (!hasScope(identity.caller, scope)) throw new ServiceError("FORBIDDEN", `Missing required scope: ${scope}`);
}
