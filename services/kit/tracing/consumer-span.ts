import type { MsgHdrs } from "nats";
import { readTrace } from "../wire";
import type { TraceIds } from "./trace-context";
import { tracer, withSpan } from "./tracer";

/**
 * A JetStream consumer's work on a batch of events, in a consumer span while tracing is on: linked to the span
 * of every write whose events it carries (their `traceparent` headers), and a child of the first one's, so that
 * a write's trace shows what followed it (the indexer, the webhooks dispatcher) in the common case of a batch
 * of one. Attributes: the consumer's name and the batch's size.
 */
export async function inConsumerSpan<T>(
  consumer: string,
  received: readonly { m: { headers?: MsgHdrs } }[],
  step: () => Promise<T>,
): Promise<T> {
  const t = tracer();
  if (t === null) return step();
  const links = writesOf(received);
  const span = t.start(`process ${consumer}`, {
    kind: "consumer",
    parent: links[0] ?? null,
    links,
    attributes: {
      "messaging.system": "nats",
      "messaging.operation.type": "process",
      "messaging.consumer.group.name": consumer,
      "messaging.batch.message_count": received.length,
    },
  });
  try {
    return await withSpan(span, step);
  } finally {
    span.end();
  }
}

/** The spans of the writes that published the messages, each once. */
function writesOf(received: readonly { m: { headers?: MsgHdrs } }[]): TraceIds[] {
  const seen = new Map<string, TraceIds>();
  for (const { m } of received) {
    const ids = readTrace(m.headers);
    if (ids && !seen.has(ids.spanId)) seen.set(ids.spanId, ids);
  }
  return [...seen.values()];
}
