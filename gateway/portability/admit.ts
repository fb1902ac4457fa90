import { ServiceError, toServiceError } from "../../services/contract/errors";
import type { Caller, Scope } from "../../services/contract/op";
import { errorFields } from "../../services/kit/log";
import { errorResponse } from "../http/envelope/envelope";
import { requireScope } from "../http/exchange/guard";
import { requestIdOf } from "../http/exchange/request-id";
import type { GatewayDeps } from "../deps";

export interface Admitted {
  caller: Caller;
  requestId: string;
  headers: Record<string, string>;
}

/**
 * The frame of a route whose body or answer is a stream (export, import, erase), which the one-call REST
 * adapter (rest/handle.ts) cannot carry: the same guard, scope check, error envelope, usage and metrics.
 * `serve` answers the Response; a ServiceError it throws becomes the envelope.
 */
export async function streamRoute(
  deps: GatewayDeps,
  request: Request,
  route: { method: string; path: string; scope: Scope },
  serve: (admitted: Admitted) => Promise<Response>,
): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const admission = await deps.guard.admit(request, requestId);
  let status = 200;
  try {
    if (!admission.ok) {
      const res = errorResponse(admission.error, requestId, admission.headers);
      status = res.status;
      return res;
    }
    try {
      requireScope(admission.identity, route.scope);
      const res = await serve({ caller: admission.identity.caller, requestId, headers: admission.headers });
      status = res.status;
      return res;
    } catch (err) {
      if (!(err instanceof ServiceError))
        deps.log.error("unexpected gateway error", { request_id: requestId, ...errorFields(err) });
      const res = errorResponse(toServiceError(err), requestId, admission.headers);
      status = res.status;
      return res;
    }
  } finally {
    const template = `/v1${route.path}`;
    const caller = admission.identity?.caller;
    if (caller) deps.usage.record(caller, `${route.method} ${template}`, status);
    deps.metrics.observeHttp(route.method, template, status, (performance.now() - started) / 1000);
  }
}
