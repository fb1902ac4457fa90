import { headers as natsHeaders, type MsgHdrs } from "nats";
import type { Caller } from "../contract/op";
import { formatTraceparent, parseTraceparent, TRACEPARENT, type TraceIds } from "./tracing/trace-context";

/** What travels in NATS headers: the gateway sets them, services read them. */
export const HEADER_REQUEST_ID = "Request-Id";
export const HEADER_CALLER = "Caller";
/** The request's Idempotency-Key, for a write that claims it in its own step (Operation.claimsIdempotencyKey). */
export const HEADER_KEY_CLAIM = "Idempotency-Claim";
/**
 * What is left of the caller's timeout when a request leaves it, in ms (relative: clocks of pods differ). A
 * service whose Redis is failing over answers 503 before it runs out (serve.ts) rather than let it end in a 504.
 */
export const HEADER_BUDGET = "Budget-Ms";
/** How long before the caller's budget ends a service answers in its place: a reply's trip back and some slack. */
export const BUDGET_MARGIN_MS = 300;

/**
 * An Idempotency-Key handed to the write it guards: the Redis key that holds it (in the tenant's slot), the
 * value that claims it, and how long the claim holds. The write refuses IDEMPOTENCY_IN_FLIGHT, having changed
 * nothing, when the key is already held; otherwise it sets the claim in the same atomic step as its change.
 */
export interface KeyClaim {
  key: string;
  value: string;
  leaseMs: number;
}

/**
 * Liveness of one request in flight: while a handler runs, the service sends an empty message with
 * this header to the reply subject every HEARTBEAT_MS (from the first HEARTBEAT_MS on, so quick
 * requests cost nothing extra). A caller that hears nothing for LOST_AFTER_MS knows the replica that
 * took the request is gone (kill -9, crash, partition), long before the request timeout.
 */
export const HEADER_WORKING = "Working";
export const HEARTBEAT_MS = 250;
/** Four missed heartbeats: tolerates event-loop stalls, and stays well inside a 2 s failover. */
export const LOST_AFTER_MS = 1000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encodeJson = (value: unknown) => encoder.encode(JSON.stringify(value ?? null));
export const decodeJson = (data: Uint8Array): unknown =>
  data.length === 0 ? undefined : JSON.parse(decoder.decode(data));

/**
 * A success reply is `{"data":…}`, written by this function only. A page (`{items, total, limit,
 * offset}`) is written with its position first and `items` last, so that the gateway can copy the
 * items into its response without parsing them (rawData, rawPage); decoding is unaffected.
 *
 * The rule for services: an operation the gateway lists (a REST route with `list`) answers exactly a
 * contract `Page` (those four fields, the position as non-negative integers). Anything else is not
 * laid out as a page (rawPage finds no position: the route fails) or loses its other fields here.
 * wire.test.ts checks every list route's output schema against this.
 */
export function encodeReply(data: unknown): Uint8Array {
  if (isPage(data)) {
    const { total, limit, offset, items } = data;
    return encoder.encode(
      `{"data":{"total":${total},"limit":${limit},"offset":${offset},"items":${JSON.stringify(items)}}}`,
    );
  }
  return encoder.encode(`{"data":${JSON.stringify(data ?? null)}}`);
}

const isPage = (x: unknown): x is { items: unknown[]; total: number; limit: number; offset: number } =>
  typeof x === "object" &&
  x !== null &&
  Array.isArray((x as { items?: unknown }).items) &&
  [(x as { total?: unknown }).total, (x as { limit?: unknown }).limit, (x as { offset?: unknown }).offset].every(
    Number.isSafeInteger,
  );

const DATA_HEAD = encoder.encode(`{"data":`);
const PAGE_HEAD = /^\{"data":\{"total":(\d+),"limit":(\d+),"offset":(\d+),"items":/;

/** The JSON text of a success reply's `data`, as bytes (a view, not a copy); null if not one. */
export function rawData(reply: Uint8Array): Uint8Array | null {
  if (reply.length < DATA_HEAD.length + 2 || reply[reply.length - 1] !== 0x7d) return null;
  for (let i = 0; i < DATA_HEAD.length; i++) if (reply[i] !== DATA_HEAD[i]) return null;
  return reply.subarray(DATA_HEAD.length, reply.length - 1);
}

/** A page reply's position and the JSON text of its items (a view); null if the reply is not a page. */
export function rawPage(reply: Uint8Array): { total: number; limit: number; offset: number; items: Uint8Array } | null {
  if (reply.length < 2 || reply[reply.length - 1] !== 0x7d || reply[reply.length - 2] !== 0x7d) return null;
  const head = PAGE_HEAD.exec(decoder.decode(reply.subarray(0, 96)));
  if (!head) return null;
  return {
    total: Number(head[1]),
    limit: Number(head[2]),
    offset: Number(head[3]),
    items: reply.subarray(head[0].length, reply.length - 2),
  };
}

export function callHeaders(
  requestId: string,
  caller: Caller | null | undefined,
  keyClaim?: KeyClaim,
  trace?: TraceIds | null,
): MsgHdrs {
  const h = natsHeaders();
  h.set(HEADER_REQUEST_ID, requestId);
  if (caller) h.set(HEADER_CALLER, JSON.stringify(caller));
  if (keyClaim) h.set(HEADER_KEY_CLAIM, JSON.stringify(keyClaim));
  if (trace) h.set(TRACEPARENT, formatTraceparent(trace));
  return h;
}

/** Headers naming a span: a JetStream event's, so that its consumers' spans link to the write that made it. */
export function traceHeaders(trace: TraceIds): MsgHdrs {
  const h = natsHeaders();
  h.set(TRACEPARENT, formatTraceparent(trace));
  return h;
}

/** The caller's span (W3C `traceparent`, the same header name as over HTTP), or null when it sent none. */
export const readTrace = (h: MsgHdrs | undefined): TraceIds | null => parseTraceparent(h?.get(TRACEPARENT));

export function readKeyClaim(h: MsgHdrs | undefined): KeyClaim | undefined {
  const raw = h?.get(HEADER_KEY_CLAIM);
  return raw ? (JSON.parse(raw) as KeyClaim) : undefined;
}

/** The caller's budget in ms, or null when it sent none (an older caller, a test). */
export function readBudget(h: MsgHdrs | undefined): number | null {
  const ms = Number(h?.get(HEADER_BUDGET));
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

export function readCaller(h: MsgHdrs | undefined): Caller | null {
  const raw = h?.get(HEADER_CALLER);
  return raw ? (JSON.parse(raw) as Caller) : null;
}
