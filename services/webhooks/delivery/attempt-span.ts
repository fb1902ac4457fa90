import { parseTraceparent } from "../../kit/tracing/trace-context";
import { tracer } from "../../kit/tracing/tracer";
import type { ClaimedDelivery } from "../store";
import type { SendResult } from "./sender";

/**
 * One attempt's POST in a client span while tracing is on, a child of the dispatcher's span that enqueued the
 * delivery (so of the write's trace). Attributes: the attempt's number and the receiver's status, never its URL
 * (an address a tenant chose) or the body.
 */
export async function inAttemptSpan(c: ClaimedDelivery, send: () => Promise<SendResult>): Promise<SendResult> {
  const t = tracer();
  if (t === null) return send();
  const span = t.start("POST webhook", {
    kind: "client",
    parent: parseTraceparent(c.trace),
    attributes: { "http.request.method": "POST", "http.request.resend_count": c.attempt - 1 },
  });
  try {
    const result = await send();
    if (result.status_code !== null) span.set("http.response.status_code", result.status_code);
    if (!result.ok) span.fail(result.status_code === null ? "unreachable" : String(result.status_code));
    return result;
  } finally {
    span.end();
  }
}
