import { shouldRenderGraphiQL } from "graphql-yoga";
import { ServiceError } from "../../services/contract/errors";
import { getMemory } from "../../services/contract/memories";
import type { Caller } from "../../services/contract/op";
import { errorFields } from "../../services/kit/log";
import type { GatewayDeps } from "../deps";
import { readJsonObject } from "../http/body/body";
import { checkJsonQueryParams } from "../http/body/json-depth";
import { errorResponse } from "../http/envelope/envelope";
import { verifyHash } from "../http/auth/auth";
import { requestIdOf } from "../http/exchange/request-id";
import { sessionIdOf } from "../session/cookie";
import { requestErrorResponse } from "./errors";
import { createEventHub } from "./events";
import { createLoaders } from "./loaders";
import { acceptable, jsonMediaType, SERVED_TYPES, STREAM_TYPES } from "./media";
import { createGraphqlServer } from "./yoga";
import { fingerprintOf, idempotencyKeyOf } from "../http/idempotency/key";
import type { Claim, Claimed } from "../http/idempotency/idempotency";
import type { Identity } from "../http/auth/identity";
import { getOperationAST, parse } from "graphql";

/** A mutation's Idempotency-Key claimed (or its kept answer); null without a key or for other operations. */
async function claimMutation(
  deps: GatewayDeps,
  request: Request,
  params: Record<string, unknown>,
  admitted: { identity: Identity; headers: Record<string, string> },
  requestId: string,
): Promise<Claim | null> {
  const key = idempotencyKeyOf(request);
  if (key === null || !isMutation(params)) return null;
  const fingerprint = fingerprintOf("POST /graphql", [params.query, params.variables, params.operationName]);
  return deps.idempotency.claim(admitted.identity.caller, key, fingerprint, requestId, admitted.headers);
}

/**
 * Whether a POST's document runs a mutation: the only GraphQL requests an Idempotency-Key applies to (on a
 * query or subscription it is ignored). A document that does not parse runs nothing; yoga answers it.
 */
function isMutation(params: Record<string, unknown>): boolean {
  if (typeof params.query !== "string") return false;
  try {
    const name = typeof params.operationName === "string" ? params.operationName : null;
    return getOperationAST(parse(params.query), name)?.operation === "mutation";
  } catch {
    return false;
  }
}

/** Sets headers on yoga's response (mutable in Bun); a copy if some runtime made them immutable. */
function withHeaders(res: Response, headers: Record<string, string>): Response {
  try {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
    return copy;
  }
}

/** 406 in the gateway's envelope (yoga's own has no body): which media types would do. */
const notAcceptable = (message: string, allowed: string[]) =>
  new ServiceError("NOT_ACCEPTABLE", message, { field: "accept", constraint: "enum", allowed });

/**
 * The /graphql endpoint: the same guard as REST (one admission, so one count against the rate limit
 * per HTTP request, subscriptions included), REST's JSON envelope for 401/403/429, then yoga with a
 * per-request context (identity, request id, DataLoaders). A POST body is read here with REST's size
 * limit. The credential is a Bearer key or, without an Authorization header, the dashboard's session
 * cookie (whose POSTs carry its CSRF token). GraphiQL's page is served without a key; its queries carry the
 * session (cookie and token) or a key typed into the page.
 */
export function graphqlHandler(
  deps: GatewayDeps,
  state: { stopping: boolean },
  graphiqlPage: (request: Request) => Response,
) {
  const recheck = (hash: string) => verifyHash(deps.bus, hash, crypto.randomUUID());
  const canSee = (caller: Caller, id: string) =>
    deps.bus.call(getMemory, { id }, { caller, requestId: crypto.randomUUID() }).then(
      () => true,
      (err) => (err instanceof ServiceError && err.code === "NOT_FOUND" ? false : Promise.reject(err)),
    );
  const hub = createEventHub(deps.nc, deps.log, () => state.stopping, recheck, canSee);
  const yoga = createGraphqlServer(deps, hub);
  const admit = (request: Request, requestId: string) => {
    const sessionId = request.headers.has("authorization") ? null : sessionIdOf(request);
    return sessionId ? deps.sessions.admit(request, sessionId, requestId) : deps.guard.admit(request, requestId);
  };
  const handle = async (request: Request): Promise<Response> => {
    if (shouldRenderGraphiQL(request)) return graphiqlPage(request);
    const requestId = requestIdOf(request);
    const admission = await admit(request, requestId);
    let res: Response;
    if (!admission.ok) res = errorResponse(admission.error, requestId, admission.headers);
    else if (!acceptable(request)) {
      // Refused before anything runs: yoga would execute the operation, then find no media type for it.
      const message = `Accept names no media type /graphql answers with: ${SERVED_TYPES.join(", ")}`;
      res = errorResponse(notAcceptable(message, SERVED_TYPES), requestId, admission.headers);
    } else {
      let claimed: Claimed | null = null;
      try {
        const params =
          request.method === "POST" ? await readJsonObject(request, deps.config.BODY_LIMIT_BYTES) : undefined;
        if (!params) checkJsonQueryParams(request.url, ["variables", "extensions"]); // GET: JSON in the URL
        const claim = params ? await claimMutation(deps, request, params, admission, requestId) : null;
        if (claim && "replay" in claim) res = claim.replay;
        else {
          claimed = claim;
          const base = { deps, identity: admission.identity, requestId, keyed: claim !== null };
          res = await yoga.handleRequest(request, { ...base, params, loaders: createLoaders(base) });
          // A subscription asked for as one JSON document: yoga answers 406 without a body.
          if (res.status === 406) {
            res = errorResponse(notAcceptable("A subscription is answered as a stream", STREAM_TYPES), requestId);
          }
          res = withHeaders(res, { ...admission.headers, "X-Request-Id": requestId });
        }
      } catch (err) {
        if (err instanceof ServiceError) {
          res = requestErrorResponse(err, requestId, admission.headers, jsonMediaType(request));
        } else {
          deps.log.error("unexpected graphql gateway error", { request_id: requestId, ...errorFields(err) });
          res = errorResponse(
            new ServiceError("INTERNAL_ERROR", "An unexpected error occurred"),
            requestId,
            admission.headers,
          );
        }
      }
      // Field errors are kept (other fields may have run); a whole request answered 5xx or 429 is not.
      if (claimed) res = await claimed.finish(res, res.status < 500 && res.status !== 429);
    }
    const caller = admission.identity?.caller;
    if (caller) deps.usage.record(caller, `${request.method === "GET" ? "GET" : "POST"} /graphql`, res.status);
    return res;
  };
  return handle;
}
