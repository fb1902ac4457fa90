import { ServiceError, toServiceError } from "../../../services/contract/errors";
import { hasScope, type Scope } from "../../../services/contract/op";
import type { Authenticator } from "../auth/auth";
import type { Identity } from "../auth/identity";
import { rateLimitHeaders, type RateLimiter } from "../limits/rate-limit";
import { corsHeaders, type OriginPolicy } from "../cors/cors";

export type Admission =
  | { ok: true; identity: Identity; headers: Record<string, string> }
  | { ok: false; identity: Identity | null; error: ServiceError; headers: Record<string, string> };

/**
 * The one door every API request passes (REST, GraphQL and the dashboard's session alike): authenticate, then
 * count the request against the key's sliding windows, and a browser token's request against its own too.
 * Scopes are checked per operation with `requireScope`. A request from another origin (a browser's) is checked
 * against `origins` before it counts, and carries CORS headers when the origin may read the answer.
 */
export function createGuard(auth: Authenticator, limiter: RateLimiter, origins?: OriginPolicy) {
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

  /**
   * A cross-origin request: its token must allow the origin (a secret key never does). Any answer once it
   * does carries CORS headers, and so do two refusals, so the page can read why: a secret key's, from any origin
   * (its message is the fix, and it holds no data), and one before the credential is known (a 401) when some
   * token or tenant allows the origin.
   */
  async function admitCrossOrigin(request: Request, requestId: string, origin: string): Promise<Admission> {
    let cors: Record<string, string> | null = null;
    let identified = false;
    const admission = await admitIdentity(async () => {
      const identity = await auth.authenticate(request.headers.get("authorization"), requestId);
      identified = true;
      if (!identity.token) cors = corsHeaders(origin);
      cors = await origins!.admit(identity, origin, requestId);
      return identity;
    });
    cors ??= !identified && (await origins!.known(origin, requestId).catch(() => false)) ? corsHeaders(origin) : null;
    return cors ? { ...admission, headers: { ...admission.headers, ...(cors as Record<string, string>) } } : admission;
  }

  return {
    /** A request carrying `Authorization: Bearer <key or token>`. */
    admit: (request: Request, requestId: string): Promise<Admission> => {
      const origin = origins?.crossOrigin(request);
      if (origin) return admitCrossOrigin(request, requestId, origin);
      return admitIdentity(() => auth.authenticate(request.headers.get("authorization"), requestId));
    },
    /** A request on behalf of the key with this SHA-256 (a dashboard session's key). */
    admitKeyHash: (hash: string, requestId: string): Promise<Admission> =>
      admitIdentity(() => auth.authenticateHash(hash, requestId)),
  };
}

export type Guard = ReturnType<typeof createGuard>;

export function requireScope(identity: Identity, scope: Scope | undefined): void {
  if (!hasScope(identity.caller, scope)) throw new ServiceError("FORBIDDEN", `Missing required scope: ${scope}`);
}
