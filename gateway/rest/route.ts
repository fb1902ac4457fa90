import type { TSchema } from "@sinclair/typebox";
import type { Operation } from "../../services/contract/op";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** A path param: always the id of a resource. */
export interface PathParam {
  /** A malformed id cannot name anything: it is a 404 with this message. */
  notFound: string;
  /** The operation input it fills, when the names differ (`/memories/:id/tags` fills `memory_id`). */
  field?: string;
}

/**
 * A REST route is a thin adapter: an HTTP shape mapped onto one contract operation.
 * No business rule lives here; the operation's schema validates, the service decides.
 * The operation's input is the body (POST, PATCH) or the query (GET, DELETE), plus the path params.
 */
export interface RestRoute {
  /** The route's name in the OpenAPI document (`createMemory`): what generated clients call it. */
  operationId: string;
  method: Method;
  /** Path below the version prefix, e.g. "/tags/:id". */
  path: string;
  op: Operation<TSchema, TSchema>;
  /** Every `:param` of the path. */
  params?: Record<string, PathParam>;
  /** The operation answers a page: map it to `data` + list `meta`. */
  list?: boolean;
  /** The operation answers an object holding a list (e.g. search results): `meta.total` = its length. */
  total?: (data: unknown) => number;
  tag: string;
}

export const route = (r: RestRoute) => r;

/** Path param name → the operation input field it fills. */
export const pathFieldsOf = (r: RestRoute): Record<string, string> =>
  Object.fromEntries(Object.entries(r.params ?? {}).map(([name, p]) => [name, p.field ?? name]));
