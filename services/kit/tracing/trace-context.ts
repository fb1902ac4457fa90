/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the ids of one span as `traceparent` carries them.
 * Parsed and written here without the OpenTelemetry SDK, so the gateway answers `traceresponse` and the logs
 * carry `trace_id` when tracing is off too, at the cost of a few string operations per request.
 */
export interface TraceIds {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  spanId: string;
  /** The caller recorded its span (the `sampled` flag): spans below it are recorded too. */
  sampled: boolean;
  /**
   * A trace started here while tracing is off: nothing records it, so only this process's logs and answer name
   * it, and calls do not carry it (a NATS header per call costs a few per cent of a read's throughput).
   */
  local?: true;
}

/** The W3C header names: what a caller sends, and what the gateway answers (Trace Context Level 2). */
export const TRACEPARENT = "traceparent";
export const TRACERESPONSE = "traceresponse";

const HEADER = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/**
 * The ids a `traceparent` header carries; null when absent or malformed (the receiver then starts a new trace,
 * as the specification asks). A version above 00 is read by its 00 fields; version ff is invalid.
 */
export function parseTraceparent(header: string | null | undefined): TraceIds | null {
  if (!header) return null;
  const m = HEADER.exec(header);
  if (!m) return null;
  const [, version, traceId, spanId, flags] = m;
  if (version === "ff" || (version === "00" && header.length !== 55)) return null;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  return { traceId: traceId!, spanId: spanId!, sampled: (Number.parseInt(flags!, 16) & 1) === 1 };
}

/** `00-<trace-id>-<span-id>-<flags>`: the form of both `traceparent` and `traceresponse`. */
export const formatTraceparent = (ids: TraceIds): string =>
  `00-${ids.traceId}-${ids.spanId}-${ids.sampled ? "01" : "00"}`;

/**
 * Random ids from `crypto.randomUUID()` (native, from a pool of entropy: a tenth of the cost of
 * getRandomValues and a hex loop): a trace id is a UUID's 32 digits, a span id 16 of another's. Neither can be
 * all zero: a v4 UUID's version digit is 4 and its variant digit 8 to b.
 */
const uuidHex = (u: string) => u.slice(0, 8) + u.slice(9, 13) + u.slice(14, 18) + u.slice(19, 23) + u.slice(24);
const newTraceId = () => uuidHex(crypto.randomUUID());
const newSpanId = () => {
  const u = crypto.randomUUID();
  return u.slice(19, 23) + u.slice(24);
};

/** The ids of a span started without the SDK: the caller's trace continued, or a new one (not sampled, local). */
export const untracedSpan = (parent: TraceIds | null): TraceIds =>
  parent
    ? { traceId: parent.traceId, spanId: newSpanId(), sampled: parent.sampled }
    : { traceId: newTraceId(), spanId: newSpanId(), sampled: false, local: true };
