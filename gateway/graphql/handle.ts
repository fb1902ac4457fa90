import { shouldRenderGraphiQL } from "graphql-yoga";
import { ServiceError } from "../../services/contract/errors";
import { getMemory } from "../../services/contract/memories";
import type { Caller } from "../../services/contract/op";
import type { GatewayDeps } from "../deps";
import { settleConnection } from "../http/body/body";
import { type Exchange, exchange, jsonBody, type Surface } from "../http/exchange/exchange";
import { underIdempotencyKey } from "../http/idempotency/keyed";
import { checkJsonQueryParams } from "../http/body/json-depth";
import { errorResponse } from "../http/envelope/envelope";
import { verifyHash } from "../http/auth/auth";
import { sessionIdOf } from "../session/cookie";
import { requestErrorResponse } from "./errors";
import { createEventHub } from "./events";
import { createLoaders } from "./loaders";
import { acceptable, jsonMediaType, SERVED_TYPES, STREAM_TYPES } from "./media";
import { createGraphqlServer, GRAPHQL_PATH } from "./yoga";
import { fingerprintOf, idempotencyKeyOf } from "../http/idempotency/key";
import { getOperationAST, parse } from "graphql";

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
 * The /graphql endpoint, in the one request frame (http/exchange): the same guard as REST (one admission, so one
 * count against the rate limit per HTTP request, subscriptions included), REST's JSON envelope for 401/403/429,
 * usage and metrics; then yoga with a per-request context (identity, request id, DataLoaders). A POST body is read
 * here with REST's size limit. The credential is a Bearer key or, without an Authorization header, the dashboard's
 * session cookie (whose POSTs carry its CSRF token). GraphiQL's page is served without a key; its queries carry
 * the session (cookie and token) or a key typed into the page.
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

  /** yoga's answer, with the gateway's headers; `keyed`: a mutation whose answer is kept for its key. */
  const execute = async (ex: Exchange, params: Record<string, unknown> | undefined, keyed: boolean) => {
    const base = { deps, identity: ex.identity, requestId: ex.requestId, trace: ex.trace, keyed };
    let res = await yoga.handleRequest(ex.request, { ...base, params, loaders: createLoaders(base) });
    // A subscription asked for as one JSON document: yoga answers 406 without a body.
    if (res.status === 406) {
      res = errorResponse(notAcceptable("A subscription is answered as a stream", STREAM_TYPES), ex.requestId);
    }
    return withHeaders(res, { ...ex.headers, "X-Request-Id": ex.requestId });
  };

  const run = async (ex: Exchange): Promise<Response> => {
    const { request } = ex;
    if (!acceptable(request)) {
      // Refused before anything runs: yoga would execute the operation, then find no media type for it.
      const message = `Accept names no media type /graphql answers with: ${SERVED_TYPES.join(", ")}`;
      return errorResponse(notAcceptable(message, SERVED_TYPES), ex.requestId, ex.headers);
    }
    const params = request.method === "POST" ? await jsonBody(ex) : undefined;
    if (!params) checkJsonQueryParams(request.url, ["variables", "extensions"]); // GET: JSON in the URL
    const key = params ? idempotencyKeyOf(request) : null;
    if (!params || key === null || !isMutation(params)) return execute(ex, params, false);
    const fingerprint = fingerprintOf("POST /graphql", [params.query, params.variables, params.operationName]);
    return underIdempotencyKey(ex, { key, fingerprint, keeps: keptAnswer }, () => execute(ex, params, true));
  };

  const admit = (_deps: GatewayDeps, request: Request, requestId: string) => {
    const sessionId = request.headers.has("authorization") ? null : sessionIdOf(request);
    return sessionId ? deps.sessions.admit(request, sessionId, requestId) : deps.guard.admit(request, requestId);
  };
  const surface = (method: "GET" | "POST"): Surface => ({
    method,
    route: GRAPHQL_PATH,
    usage: `${method} ${GRAPHQL_PATH}`,
    admit,
    fail: graphqlFailure,
  });
  const GET = surface("GET");
  const POST = surface("POST");
  return (request: Request): Response | Promise<Response> => {
    if (shouldRenderGraphiQL(request)) return settleConnection(request, graphiqlPage(request));
    return exchange(deps, request.method === "GET" ? GET : POST, request, run, undefined);
  };
}

/** Field errors are kept (other fields may have run); a whole request answered 5xx or 429 is not. */
const keptAnswer = (res: Response) => res.status < 500 && res.status !== 429;

/** A refusal in the GraphQL response format (errors.ts); anything else is REST's 500 envelope. */
function graphqlFailure(err: unknown, ex: Exchange): Response {
  if (err instanceof ServiceError)
    return requestErrorResponse(err, ex.requestId, ex.headers, jsonMediaType(ex.request));
  return errorResponse(new ServiceError("INTERNAL_ERROR", "An unexpected error occurred"), ex.requestId, ex.headers);
}
