import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import {
  graphqlCodeOf,
  httpStatusOf,
  isErrorCode,
  ServiceError,
  type ErrorDetails,
} from "../../services/contract/errors";
import { errorFields, type Logger } from "../../services/kit/log";
import { snake } from "./args";
import { APPLICATION_JSON, type JsonMediaType } from "./media";

type Extensions = Record<string, unknown>;

const rebuild = (err: GraphQLError, message: string, extensions: Extensions) =>
  new GraphQLError(message, {
    nodes: err.nodes,
    source: err.source,
    positions: err.positions,
    path: err.path,
    extensions,
  });

/**
 * yoga's `maskError`: a ServiceError becomes its REST code (+ `details`), a request error (parse,
 * validation, variables: a GraphQLError with no path) passes, anything else is a bug
 * and is masked as INTERNAL_ERROR, the cause only in the log.
 */
export const maskError =
  (log: Logger) =>
  (error: unknown): Error => {
    const gql = error instanceof GraphQLError ? error : null;
    const cause = gql ? gql.originalError : error;
    if (cause instanceof ServiceError) {
      const ext: Extensions = { code: graphqlCodeOf(cause.code) };
      if (cause.details) ext.details = cause.details;
      return gql ? rebuild(gql, cause.message, ext) : new GraphQLError(cause.message, { extensions: ext });
    }
    if (gql && !gql.path) return gql; // a request error (its cause, if any, is a scalar's parse error)
    log.error("unexpected graphql error", { path: gql?.path?.join("."), ...errorFields(cause ?? error) });
    const internal = new ServiceError("INTERNAL_ERROR", "An unexpected error occurred");
    const ext = { code: graphqlCodeOf(internal.code) };
    return gql ? rebuild(gql, internal.message, ext) : new GraphQLError(internal.message, { extensions: ext });
  };

const VARIABLE_RE = /^Variable "\$([^"]+)" got invalid value[\s\S]*? at "([^"]+)"/;
const VARIABLE_ROOT_RE = /^Variable "\$([^"]+)"/;
const REQUIRED_RE = /(?:Field "(?:\w+\.)?(\w+)"|Argument "(\w+)") of required type "[^"]+" was not provided/;

/**
 * A bad variable value, named like REST names the field: `$input` at "input.createdAfter" →
 * `created_after`, "f.tags[2]" → `tags.2`; a scalar variable by its own name.
 */
function variableField(variable: string, at: string | undefined): string {
  const inner = at?.split(".").slice(1).join(".");
  const path = inner || variable;
  return path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .map(snake)
    .join(".");
}

/** `details` of a request error: which part of the request is wrong, and how (limits.ts tags its refusals). */
function requestDetails(err: GraphQLError): ErrorDetails {
  const ext = (err.extensions ?? {}) as Extensions;
  if (typeof ext.constraint === "string")
    return { field: "query", constraint: ext.constraint, ...(ext.limit !== undefined ? { max: ext.limit } : {}) };
  const required = REQUIRED_RE.exec(err.message);
  if (required) return { field: snake(required[1] ?? required[2]!), constraint: "required" };
  const variable = VARIABLE_RE.exec(err.message) ?? VARIABLE_ROOT_RE.exec(err.message);
  if (variable) return { field: variableField(variable[1]!, variable[2]), constraint: "type" };
  if (err.message.startsWith("Syntax Error")) return { field: "query", constraint: "syntax" };
  return { field: "query", constraint: "schema" };
}

/** Every error leaves with a REST code and the request id; request errors are VALIDATION_ERRORs with details. */
export function finishError(err: GraphQLError, requestId: string): GraphQLError {
  const { http, constraint: _c, limit: _l, ...ext } = (err.extensions ?? {}) as Extensions;
  if (!isErrorCode(ext.code)) {
    ext.code = "VALIDATION_ERROR";
    ext.details = requestDetails(err);
  }
  ext.request_id = requestId;
  if (http) ext.http = http; // yoga reads the HTTP status from it, and strips it from the response
  return rebuild(err, err.message, ext);
}

type ResultLike = { errors?: readonly GraphQLError[] } & Record<string, unknown>;

const finishResult = (r: ResultLike, requestId: string): ResultLike =>
  r.errors?.length ? { ...r, errors: r.errors.map((e) => finishError(e, requestId)) } : r;

async function* finishStream(results: AsyncIterable<ResultLike>, requestId: string) {
  for await (const r of results) yield finishResult(r, requestId);
}

/** Applies `finishError` to every result the server sends: single, batched or streamed (SSE). */
export function useErrorExtensions(): Plugin<{ requestId: string }> {
  return {
    onResultProcess({ result, setResult, serverContext }) {
      const requestId = (serverContext as { requestId?: string }).requestId ?? "";
      if (Array.isArray(result)) setResult(result.map((r) => finishResult(r as ResultLike, requestId)) as never);
      else if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
        setResult(finishStream(result as AsyncIterable<ResultLike>, requestId) as never);
      } else setResult(finishResult(result as ResultLike, requestId) as never);
    },
  };
}

/**
 * A request refused before GraphQL could read it: a GraphQL response with the error's code and
 * details. A body that is no GraphQL-over-HTTP request (too large, not UTF-8, not a JSON object)
 * gets REST's status in any media type. A lone surrogate in its parameters makes a well-formed
 * request with a bad value, answered as yoga answers a bad variable: 400 in the GraphQL response
 * media type, 200 in application/json.
 */
export function requestErrorResponse(
  error: ServiceError,
  requestId: string,
  headers: Record<string, string>,
  mediaType: JsonMediaType | null,
): Response {
  const extensions = {
    code: graphqlCodeOf(error.code),
    ...(error.details ? { details: error.details } : {}),
    request_id: requestId,
  };
  const wellFormed = error.details?.constraint === "unicode";
  return new Response(JSON.stringify({ errors: [{ message: error.message, extensions }] }), {
    status: wellFormed && mediaType === APPLICATION_JSON ? 200 : httpStatusOf(error.code),
    headers: {
      "Content-Type": `${mediaType ?? APPLICATION_JSON}; charset=utf-8`,
      ...headers,
      "X-Request-Id": requestId,
    },
  });
}

/** The JSON body the /graphql handler already read (with REST's size limit) is yoga's request params. */
export function usePreParsedBody(): Plugin<{ params?: Record<string, unknown> }> {
  return {
    onRequestParse({ serverContext, setRequestParser }) {
      const params = (serverContext as { params?: Record<string, unknown> }).params;
      if (params) setRequestParser(() => params as never);
    },
  };
}
