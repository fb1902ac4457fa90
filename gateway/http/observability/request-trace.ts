import {
  formatTraceparent,
  parseTraceparent,
  TRACEPARENT,
  TRACERESPONSE,
  type TraceIds,
} from "../../../services/kit/tracing/trace-context";
import { type Tracer, withSpan } from "../../../services/kit/tracing/tracer";

/** The caller's span: its well-formed `traceparent`, continued; null (a new trace) otherwise. */
export const callerSpan = (request: Request): TraceIds | null => parseTraceparent(request.headers.get(TRACEPARENT));

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
    return withTraceresponse(res, span.ids);
  } catch (err) {
    span.fail((err as Error)?.name ?? "Error");
    throw err;
  } finally {
    span.end();
  }
}

/** The answer names its trace (W3C Trace Context Level 2): the id a caller quotes to an operator. */
export function withTraceresponse(res: Response, ids: TraceIds): Response {
  try {
    res.headers.set(TRACERESPONSE, formatTraceparent(ids));
    return res;
  } catch {
    // Headers of a response made by Response.error() or redirect() are immutable: a copy carries it instead.
    const copy = new Response(res.body, res);
    copy.headers.set(TRACERESPONSE, formatTraceparent(ids));
    return copy;
  }
}
