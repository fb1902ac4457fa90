import { ServiceError, toServiceError } from "../../services/contract/errors";
import { hasScope, type Scope } from "../../services/contract/op";
import type { Authenticator, Identity } from "./auth";
import { rateLimitHeaders, type RateLimiter } from "./rate-limit";

export type Admission =
  | { ok: true; identity: Identity; headers: Record<string, string> }
  | { ok: false; identity: Identity | null; error: ServiceError; headers: Record<string, string> };

/**
 * The one door every API request passes (REST and GraphQL alike): authenticate, then count the
 * request against the key's sliding windows. Scopes are checked per operation with `requireScope`.
 */
export function createGuard(auth: Authenticator, limiter: RateLimiter) {
  return {
    async admit(request: Request, requestId: string): Promise<Admission> {
      let identity: Identity | null = null;
      try {
        identity = await auth.authenticate(request.headers.get("authorization"), requestId);
        const result = await limiter.check(identity.caller.keyId, identity.limits);
        const headers = rateLimitHeaders(result);
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
    },
  };
}

export type Guard = ReturnType<typeof createGuard>;

export function requireScope(identity: Identity, scope: Scope | undefined): void {
  if (!hasScope(identity.caller, scope)) throw new ServiceError("FORBIDDEN", `Missing required scope: ${scope}`);
}
