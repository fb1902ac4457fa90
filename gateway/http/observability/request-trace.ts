import {
  formatTraceparent,
  parseTraceparent,
  TRACEPARENT,
  TRACERESPONSE,
  type TraceIds,
  untracedSpan,
} from "../../../services/kit/tracing/trace-context";
import { type Tracer, withSpan } from "../../../services/kit/tracing/tracer";

/** The caller's span: its well-formed `traceparent`, continued; null (a new trace) otherwise. */
export const callerSpan = (request: Request): TraceIds | null => parseTraceparent(request.headers.get(TRACEPARENT));

/**
 * The `traceresponse` of an answer given outside the request frame (no route, a method no route takes, a body
 * that does not parse): no span is recorded for it, but the caller's trace is named all the same.
 */
export const unframedTraceHeader = (request: Request): Record<string, string> => ({
  [TRACERESPONSE]: formatTraceparent(untracedSpan(callerSpan(request))),
});

/**
 * Runs `answer` in the request's server span (tracing on), labelled by the route's template and the status
 * only: never the path, which holds ids, nor anything of the body.
 */
export async function inRequestSpan(
  t: Tracer,
  parent: TraceIds | null,
  method: string,
  route: string,
  answer: (trace: TraceIds) => Promise<Response>,
): Promise<Response> {
  const attributes = { "http.request.method": method, "http.route": route };
  const span = t.start(`${method} ${route}`, { kind: "server", parent, attributes });
  try {
    const res = await withSpan(span, () => answer(span.ids));
    span.set("http.response.status_code", res.status);
    if (res.status >= 500) span.fail(String(res.status));
    return res;
  } catch (err) {
    span.fail((err as Error)?.name ?? "Error");
    throw err;
  } finally {
    span.end();
  }
}
