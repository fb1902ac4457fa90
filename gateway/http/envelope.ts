import { httpStatusOf, type ServiceError } from "../../services/contract/errors";
import type { PageOf } from "../../services/contract/common";

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8" };

export interface Meta {
  request_id: string;
  latency_ms?: number;
  total?: number;
  limit?: number;
  offset?: number;
  has_more?: boolean;
}

/**
 * Spec section 4.1: `data` + `meta`, `X-Request-Id` on every response. `data` comes as JSON text in
 * bytes (a service's reply, passed through unparsed: parsing and re-serialising a 20 KiB page cost
 * the gateway more than the rest of the call).
 */
export function rawSuccessResponse(dataJson: Uint8Array, meta: Meta, headers: Record<string, string>): Response {
  return new Response(new Blob(['{"data":', dataJson as Uint8Array<ArrayBuffer>, `,"meta":${JSON.stringify(meta)}}`]), {
    status: 200,
    headers: { ...JSON_HEADERS, ...headers, "X-Request-Id": meta.request_id },
  });
}

type PagePosition = Omit<PageOf<unknown>, "items">;

/**
 * More items after this page: the same rule for REST's `meta.has_more` and GraphQL's `hasMore`.
 * Totals are exact, so a page holds min(limit, total − offset) items: more follow iff offset + limit < total.
 */
export const hasMore = (page: PagePosition) => page.offset + page.limit < page.total;

export function listMeta(page: PagePosition, requestId: string, latencyMs: number): Meta {
  return {
    request_id: requestId,
    latency_ms: latencyMs,
    total: page.total,
    limit: page.limit,
    offset: page.offset,
    has_more: hasMore(page),
  };
}

/** Spec section 7.1: `{error: {code, message, details?}, meta: {request_id}}`. */
export function errorResponse(error: ServiceError, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: error.toBody(), meta: { request_id: requestId } }), {
    status: httpStatusOf(error.code),
    headers: { ...JSON_HEADERS, ...headers, "X-Request-Id": requestId },
  });
}

export const roundMs = (ms: number) => Math.round(ms * 100) / 100;
