import { expect } from "bun:test";
import { parseTraceparent, type TraceIds } from "../../services/kit/tracing/trace-context";
import type { ReceivedSpan } from "./otlp-receiver";

/** OTLP's span kinds. */
export const KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

/** The answer's `traceresponse`, which every API answer carries (W3C Trace Context Level 2). */
export function traceOf(headers: Headers): TraceIds {
  const header = headers.get("traceresponse");
  expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  return parseTraceparent(header)!;
}

/** Whether `span` descends from the span `ancestorId` among `spans` (a chain of parents). */
export function descends(span: ReceivedSpan, ancestorId: string, spans: ReceivedSpan[]): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let s: ReceivedSpan | undefined = span; s; s = byId.get(s.parentSpanId)) {
    if (s.parentSpanId === ancestorId) return true;
  }
  return false;
}

/** Finds the one span a predicate names, failing with what there is when absent. */
export function one(spans: ReceivedSpan[], what: string, pick: (s: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(pick);
  if (found.length === 0)
    throw new Error(`no ${what} among ${spans.map((s) => `${s.service}:${s.name}`).join(", ") || "no spans"}`);
  return found[0]!;
}
