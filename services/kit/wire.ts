import { headers as natsHeaders, type MsgHdrs } from "nats";
import type { Caller } from "../contract/op";
import type { ErrorBody } from "../contract/errors";

/** What travels in NATS headers: the gateway sets them, services read them. */
export const HEADER_REQUEST_ID = "Request-Id";
export const HEADER_CALLER = "Caller";

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
export const decodeJson = (data: Uint8Array): unknown => (data.length === 0 ? undefined : JSON.parse(decoder.decode(data)));

export type Reply = { data: unknown } | { error: ErrorBody };

export function callHeaders(requestId: string, caller: Caller | null | undefined): MsgHdrs {
  const h = natsHeaders();
  h.set(HEADER_REQUEST_ID, requestId);
  if (caller) h.set(HEADER_CALLER, JSON.stringify(caller));
  return h;
}

export function readCaller(h: MsgHdrs | undefined): Caller | null {
  const raw = h?.get(HEADER_CALLER);
  return raw ? (JSON.parse(raw) as Caller) : null;
}
