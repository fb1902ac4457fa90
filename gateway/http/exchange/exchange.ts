import { ServiceError, toServiceError } from "../../../services/contract/errors";
import type { Caller, Scope } from "../../../services/contract/op";
import { errorFields } from "../../../services/kit/log";
import type { GatewayDeps } from "../../deps";
import type { Identity } from "../auth/identity";
import { readJsonObject, settleConnection } from "../body/body";
import { errorResponse } from "../envelope/envelope";
import { type Admission, requireScope } from "./guard";
import { requestIdOf } from "./request-id";
import { callerSpan, inRequestSpan } from "../observability/request-trace";
import {
  formatTraceparent,
  TRACERESPONSE,
  type TraceIds,
  untracedSpan,
} from "../../../services/kit/tracing/trace-context";
import { tracer } from "../../../services/kit/tracing/tracer";

/**
 * A route as the request frame counts it, built once per route (never per request): its labels in
 * `http_requests_total` and in usage, the scope the whole route needs, and what its protocol does differently.
 */
export interface Surface {
  /** `http_requests_total`'s method label. */
  method: string;
  /** `http_requests_total`'s route label: the template, never the path, so the series stay a small set. */
  route: string;
  /** The usage endpoint, unless the run names a narrower one (`Exchange.usage`). */
  usage: string;
  /** The scope of the whole route; GraphQL and MCP check each operation's own as they call it. */
  scope?: Scope;
  /** The door, when it is not the guard's alone (GraphQL also admits the dashboard's session cookie). */
  admit?: (deps: GatewayDeps, request: Request, requestId: string) => Promise<Admission>;
  /** How the protocol answers an error thrown while running; REST's envelope when absent. */
  fail?: (err: unknown, ex: Exchange) => Response;
}

/** One admitted request, as the surface's run sees it. */
export interface Exchange {
  deps: GatewayDeps;
  surface: Surface;
  request: Request;
  requestId: string;
  /** The request's span: what its NATS calls carry while tracing is off, and its logs' `trace_id`. */
  trace: TraceIds;
  identity: Identity;
  caller: Caller;
  /** What every answer to the request carries: its rate-limit, CORS and `traceresponse` headers. */
  headers: Record<string, string>;
  /** `performance.now()` at arrival: the answer's `latency_ms`, the duration metric. */
  started: number;
  /** The usage endpoint; a run may narrow it once it knows more (MCP: the tool called). */
  usage: string;
}

/**
 * The request frame of every API surface, written once: admit (authenticate, rate limit, CORS) → the route's
 * scope → `run` → an error thrown becomes the envelope → usage and metrics → the answer, its unread body settled
 * (settleConnection), in the request's span (with `traceresponse`). REST, GraphQL, MCP and the streamed routes
 * only translate their protocol in `run`. `run` and `arg` are passed apart so that a route's run is built
 * once, not as a closure per request. Tracing off, the request's ids are made without the SDK, so the logs and
 * the answer name its trace all the same.
 */
export function exchange<A>(
  deps: GatewayDeps,
  surface: Surface,
  request: Request,
  run: (ex: Exchange, arg: A) => Promise<Response>,
  arg: A,
): Promise<Response> {
  const parent = callerSpan(request);
  const t = tracer();
  if (t === null) return frame(deps, surface, request, run, arg, untracedSpan(parent));
  return inRequestSpan(t, parent, surface.method, surface.route, (trace) =>
    frame(deps, surface, request, run, arg, trace),
  );
}

async function frame<A>(
  deps: GatewayDeps,
  surface: Surface,
  request: Request,
  run: (ex: Exchange, arg: A) => Promise<Response>,
  arg: A,
  trace: TraceIds,
): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const admission = await (surface.admit
    ? surface.admit(deps, request, requestId)
    : deps.guard.admit(request, requestId));
  // In the headers every answer carries (each admission's own record): set before the answer is built, as
  // changing a built Response's headers costs more.
  admission.headers[TRACERESPONSE] = formatTraceparent(trace);
  let res: Response;
  let usage = surface.usage;
  if (!admission.ok) res = errorResponse(admission.error, requestId, admission.headers);
  else {
    const { identity, headers } = admission;
    const ex: Exchange = {
      deps,
      surface,
      request,
      requestId,
      trace,
      identity,
      caller: identity.caller,
      headers,
      started,
      usage,
    };
    try {
      if (surface.scope !== undefined) requireScope(identity, surface.scope);
      res = await run(ex, arg);
    } catch (err) {
      res = failed(ex, err);
    }
    usage = ex.usage;
  }
  const caller = admission.identity?.caller;
  if (caller) deps.usage.record(caller, usage, res.status);
  deps.metrics.observeHttp(surface.method, surface.route, res.status, (performance.now() - started) / 1000);
  return settleConnection(request, res);
}

/** The answer to an error thrown while running: the protocol's, else the envelope. Only a surprise is logged. */
export function failed(ex: Exchange, err: unknown): Response {
  if (!(err instanceof ServiceError)) {
    const fields = {
      request_id: ex.requestId,
      trace_id: ex.trace.traceId,
      route: ex.surface.route,
      ...errorFields(err),
    };
    ex.deps.log.error("unexpected gateway error", fields);
  }
  return ex.surface.fail ? ex.surface.fail(err, ex) : errorResponse(toServiceError(err), ex.requestId, ex.headers);
}

/** The request's body as a JSON object, within the gateway's size limit (http/body). */
export const jsonBody = (ex: Exchange): Promise<Record<string, unknown>> =>
  readJsonObject(ex.request, ex.deps.config.BODY_LIMIT_BYTES);

/** The surface of an API route: labelled by its `/v1` template, whichever prefix (`/v1`, `/api/v1`) it came on. */
export const apiSurface = (method: string, path: string, scope?: Scope): Surface => ({
  method,
  route: `/v1${path}`,
  usage: `${method} /v1${path}`,
  ...(scope === undefined ? {} : { scope }),
});
