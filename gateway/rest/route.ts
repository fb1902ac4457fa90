import type { TSchema } from "@sinclair/typebox";
import type { Operation } from "../../services/contract/op";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body: Record<string, unknown> | undefined;
}

/**
 * A REST route is a thin adapter: an HTTP shape mapped onto one contract operation.
 * No business rule lives here; the operation's schema validates, the service decides.
 */
export interface RestRoute {
  method: Method;
  /** Path below the version prefix, e.g. "/tags/:id". */
  path: string;
  op: Operation<TSchema, TSchema>;
  /** Builds the operation input. Default: query for GET/DELETE, body for POST/PATCH, plus path params. */
  input?: (req: RestRequest) => unknown;
  /** The operation answers a page: map it to `data` + list `meta`. */
  list?: boolean;
  /** The operation answers an object holding a list (e.g. search results): `meta.total` = its length. */
  total?: (data: unknown) => number;
  /** Path params that must be UUIDs; a malformed one is a 404 with this message. */
  ids?: Record<string, string>;
  tag: string;
}

export const route = (r: RestRoute) => r;
