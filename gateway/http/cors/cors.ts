import { ServiceError } from "../../../services/contract/errors";
import { knownOrigin, tenantOrigins } from "../../../services/contract/tenant";
import type { Bus } from "../../../services/kit/bus";
import type { Identity } from "../auth/identity";
import { hostOf } from "../exchange/forwarded";

/**
 * Browser access (CORS) to /v1 and /graphql. Only browser tokens are for browsers: a request from another
 * origin is answered with CORS headers when its token allows the origin (the token's `origins`, else its
 * tenant's allow-list); a secret key from another origin is refused, readably. No credentials mode: tokens travel
 * in `Authorization`, never in cookies.
 */
/** `traceparent` and `tracestate`: a browser's tracing (OpenTelemetry's fetch instrumentation) sends both. */
export const ALLOW_HEADERS =
  "Authorization, Content-Type, Idempotency-Key, X-Request-Id, Last-Event-ID, traceparent, tracestate";
export const EXPOSE_HEADERS =
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id, Retry-After, traceresponse";
export const ALLOW_METHODS = "GET, POST, PATCH, DELETE";
/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
export const MAX_AGE_S = 600;
const API_PATH = /^\/(api\/)?v1(\/|$)|^\/graphql$/;

/** How long a tenant's allow-list, or whether an origin is known, is reused by this replica. */
const CACHE_MS = 2000;

export const corsHeaders = (origin: string): Record<string, string> => ({
  "Access-Control-Allow-Origin": origin,
  "Access-Control-Expose-Headers": EXPOSE_HEADERS,
  Vary: "Origin",
});

const preflightResponse = (origin: string) =>
  new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": ALLOW_METHODS,
      "Access-Control-Allow-Headers": ALLOW_HEADERS,
      "Access-Control-Max-Age": String(MAX_AGE_S),
      Vary: "Origin",
    },
  });

export const useATokenError = () =>
  new ServiceError(
    "FORBIDDEN",
    "A secret API key must never reach browser code: mint a short-lived token on your backend (POST /v1/tokens) " +
      "and send that instead",
    { field: "authorization", constraint: "token_required" },
  );

const originRefused = (origin: string) =>
  new ServiceError("FORBIDDEN", `The origin ${origin} is not allowed to use this token`, {
    field: "origin",
    constraint: "allowed_origins",
  });

/** Answers reused for CACHE_MS, by key; bounded (emptied when full). */
function shortCache<V>() {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get: (key: string): V | undefined => {
      const hit = entries.get(key);
      return hit && hit.until > Date.now() ? hit.value : undefined;
    },
    set(key: string, value: V): V {
      if (entries.size >= 10_000) entries.clear();
      entries.set(key, { value, until: Date.now() + CACHE_MS });
      return value;
    },
  };
}

export function createOriginPolicy(bus: Bus, opts: { trustProxy: boolean } = { trustProxy: false }) {
  const knownOrigins = shortCache<boolean>();
  const known = async (origin: string, requestId: string): Promise<boolean> =>
    knownOrigins.get(origin) ??
    knownOrigins.set(origin, (await bus.call(knownOrigin, { origin }, { requestId })).known);

  const tenantLists = shortCache<string[]>();
  const tenantAllowList = async ({ caller }: Identity, requestId: string): Promise<string[]> => {
    const space = `${caller.tenant}:${caller.env}`;
    return (
      tenantLists.get(space) ??
      tenantLists.set(space, (await bus.call(tenantOrigins, {}, { requestId, caller })).origins)
    );
  };

  return {
    /** The request's `Origin` when it is another origin than the gateway's own (by host); else null. */
    crossOrigin(request: Request): string | null {
      const origin = request.headers.get("origin");
      if (!origin) return null;
      const host = hostOf(request, opts.trustProxy);
      try {
        if (host && new URL(origin).host === host) return null;
      } catch {
        /* "null" or garbage: another origin, allowed by nothing */
      }
      return origin;
    },

    /** Whether some tenant or unexpired token allows the origin (a 401 from it carries CORS headers). */
    known,

    /** Checks a cross-origin request's identity; its CORS headers, or a refusal (403). */
    async admit(identity: Identity, origin: string, requestId: string): Promise<Record<string, string>> {
      if (!identity.token) throw useATokenError();
      const allowed = identity.token.origins.length
        ? identity.token.origins
        : await tenantAllowList(identity, requestId);
      if (!allowed.includes(origin)) throw originRefused(origin);
      return corsHeaders(origin);
    },

    /**
     * A preflight of /v1 or /graphql from another origin, whichever: 204 with CORS headers. It carries no credential,
     * and no cookie or other ambient credential reaches the API, so it decides nothing: the guard checks the actual
     * request (a token's origins; a secret key refused) before any operation runs. Answering every origin lets a
     * page read that refusal instead of a bare network error. Anything else gets undefined (this runs before every
     * request).
     */
    preflight(request: Request): Response | undefined {
      if (request.method !== "OPTIONS" || !request.headers.has("access-control-request-method")) return undefined;
      const origin = this.crossOrigin(request);
      if (!origin || !API_PATH.test(new URL(request.url).pathname)) return undefined;
      return preflightResponse(origin);
    },
  };
}

export type OriginPolicy = ReturnType<typeof createOriginPolicy>;
