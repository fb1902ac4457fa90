import type { TSchema } from "@sinclair/typebox";
import { ERROR_TABLE, type ErrorCode } from "../../services/contract/errors";
import { Entity } from "../../services/contract/entities";
import { ApiKey, CreatedKey } from "../../services/contract/keys";
import { Memory, TagRef } from "../../services/contract/memories";
import { ContextOutput, SearchResult } from "../../services/contract/search";
import { Tag } from "../../services/contract/tags";
import { UsageReport } from "../../services/contract/usage";
import { CreatedWebhook, Webhook, WebhookDelivery } from "../../services/contract/webhooks";
import { CountedMeta, ErrorEnvelope, ListMeta, SuccessMeta } from "../http/envelope/envelope";
import { keyRefusal } from "../http/idempotency/key";
import { type JsonObject, SchemaComponents, withoutProperties } from "./openapi-schemas";
import { pathFieldsOf, type RestRoute } from "./route";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from "../http/idempotency/key";

/** The document lists each route once, under the first prefix (gateway/app.ts serves `/api/v1` too). */
const PREFIX = "/v1";

/** Schemas that generated clients see by name. */
const NAMED_SCHEMAS: Record<string, TSchema> = {
  Memory,
  TagRef,
  Tag,
  Entity,
  ApiKey,
  CreatedKey,
  SearchResult,
  ContextOutput,
  UsageReport,
  Webhook,
  CreatedWebhook,
  WebhookDelivery,
  Meta: SuccessMeta,
  CountedMeta,
  ListMeta,
  Error: ErrorEnvelope,
};

/**
 * Codes no single operation answers: 405 is the answer for a method the path does not serve,
 * 406 comes from GraphQL only.
 */
const NOT_PER_OPERATION: ReadonlySet<ErrorCode> = new Set(["METHOD_NOT_ALLOWED", "NOT_ACCEPTABLE"]);
const OPERATION_ERRORS = (Object.keys(ERROR_TABLE) as ErrorCode[]).filter((code) => !NOT_PER_OPERATION.has(code));
/** Codes of an Idempotency-Key: writes that take one only. */
const WRITE_ONLY: ReadonlySet<ErrorCode> = new Set(["IDEMPOTENCY_IN_FLIGHT", "IDEMPOTENCY_KEY_REUSED"]);

const idempotencyKeyParameter = {
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: false,
  description:
    "Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first " +
    "answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with " +
    "another request is a 422; while the first still runs, a 409.",
  schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: "^[\\x21-\\x7e]+$" },
};

const header = (description: string, schema: JsonObject, required: boolean) => ({ description, required, schema });
const requestIdHeader = header("The request's id, as in `meta.request_id`.", { type: "string" }, true);
const rateLimitHeaders = (required: boolean) => ({
  "X-RateLimit-Limit": header("Requests allowed in the key's binding window.", { type: "integer" }, required),
  "X-RateLimit-Remaining": header("Requests left in that window.", { type: "integer" }, required),
  "X-RateLimit-Reset": header(
    "Unix time (seconds) when the window next frees capacity.",
    { type: "integer" },
    required,
  ),
});

const replayedHeader = header(
  "`true` on a replay: the answer of an earlier request with the same Idempotency-Key.",
  { type: "string", enum: ["true"] },
  false,
);
const originalRequestHeader = header("On a replay: the request id of the request that ran.", { type: "string" }, false);

/** The codes of each status, in table order: one response per status names them all (403: two of them). */
const CODES_BY_STATUS = new Map<number, ErrorCode[]>();
for (const code of OPERATION_ERRORS) {
  const status = ERROR_TABLE[code].status;
  CODES_BY_STATUS.set(status, [...(CODES_BY_STATUS.get(status) ?? []), code]);
}

/** The response of the codes sharing a status, named after the first of them. */
function errorResponse(codes: ErrorCode[]) {
  const code = codes[0]!;
  // Rate-limit headers come with every answer to a known key, so not with a 401.
  const headers = {
    "X-Request-Id": requestIdHeader,
    ...(code === "UNAUTHORIZED" ? {} : rateLimitHeaders(code === "RATE_LIMITED")),
    ...(code === "RATE_LIMITED" ? { "Retry-After": header("Seconds to wait.", { type: "integer" }, true) } : {}),
  };
  return {
    description: codes.map((c) => `${c}${ERROR_TABLE[c].retryable ? " (retryable)" : ""}`).join(", "),
    headers,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
}

/** `/memories/:id` → `/v1/memories/{id}`. */
export const documentPath = (r: RestRoute) => PREFIX + r.path.replace(/:(\w+)/g, "{$1}");

function operation(r: RestRoute, schemas: SchemaComponents) {
  const input = r.op.input;
  const fromPath = pathFieldsOf(r);
  const pathFields = Object.values(fromPath);
  const parameters: JsonObject[] = Object.keys(fromPath).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string", format: "uuid" },
  }));
  const write = r.method !== "GET" && keyRefusal(r.op) === null;
  if (write) parameters.push(idempotencyKeyParameter);
  const hasBody = r.method === "POST" || r.method === "PATCH";
  const sent = withoutProperties(input, pathFields);
  if (!hasBody) {
    const required = (sent.required ?? []) as string[];
    for (const [name, prop] of Object.entries(sent.properties as Record<string, JsonObject>)) {
      const { description, ...schema } = prop;
      const about: JsonObject = description === undefined ? {} : { description };
      parameters.push({ name, in: "query", required: required.includes(name), ...about, schema: schemas.ref(schema) });
    }
  }
  const output = r.op.output;
  const data = r.list ? (output.properties as Record<string, TSchema>).items! : output;
  const meta = r.list ? "ListMeta" : r.total ? "CountedMeta" : "Meta";
  return {
    operationId: r.operationId,
    summary: r.op.summary,
    ...(r.op.scope ? { description: `Requires the \`${r.op.scope}\` scope.` } : {}),
    tags: [r.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(hasBody
      ? { requestBody: { required: true, content: { "application/json": { schema: schemas.ref(sent) } } } }
      : {}),
    responses: {
      200: {
        description: "Success",
        headers: {
          "X-Request-Id": requestIdHeader,
          ...rateLimitHeaders(true),
          ...(write ? { "Idempotent-Replayed": replayedHeader, "Original-Request": originalRequestHeader } : {}),
        },
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["data", "meta"],
              properties: { data: schemas.ref(data), meta: { $ref: `#/components/schemas/${meta}` } },
            },
          },
        },
      },
      ...Object.fromEntries(
        [...CODES_BY_STATUS]
          .filter(([, codes]) => write || codes.some((code) => !WRITE_ONLY.has(code)))
          .map(([status, codes]) => [status, { $ref: `#/components/responses/${codes[0]}` }]),
      ),
    },
  };
}

/**
 * The OpenAPI 3.1 document of the REST API, built from the route table and the contract's TypeBox
 * schemas: the schemas that validate requests are the ones it shows, so it cannot drift from them.
 */
export function openApiDocument(routes: readonly RestRoute[]) {
  const schemas = new SchemaComponents(NAMED_SCHEMAS);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) (paths[documentPath(r)] ??= {})[r.method.toLowerCase()] = operation(r, schemas);
  return {
    openapi: "3.1.0",
    info: {
      title: "Memory Storage Service",
      version: "1.0.0",
      description:
        "Multi-tenant memory store for AI applications. Every answer is an envelope: `data` and `meta` " +
        "on success, `error` and `meta` otherwise. Every path is also served under `/api/v1`.",
    },
    servers: [{ url: "/", description: "This gateway." }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "API key or browser token",
          description:
            "An API key (`svc_live_…` or `svc_test_…`), or in browser code a token a key minted (`svc_tok_…`, " +
            "POST /v1/tokens).",
        },
      },
      schemas: schemas.schemas,
      responses: Object.fromEntries([...CODES_BY_STATUS.values()].map((codes) => [codes[0], errorResponse(codes)])),
    },
  };
}
