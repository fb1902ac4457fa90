import type { TSchema } from "@sinclair/typebox";
import { ERROR_TABLE, type ErrorCode } from "../../services/contract/errors";
import { Entity } from "../../services/contract/entities";
import { ApiKey, CreatedKey } from "../../services/contract/keys";
import { Memory, TagRef } from "../../services/contract/memories";
import { ContextOutput, SearchResult } from "../../services/contract/search";
import { Tag } from "../../services/contract/tags";
import { UsageReport } from "../../services/contract/usage";
import { CreatedWebhook, Webhook, WebhookDelivery } from "../../services/contract/webhooks";
import { CountedMeta, ErrorEnvelope, ListMeta, SuccessMeta } from "../http/envelope";
import { type JsonObject, SchemaComponents, withoutProperties } from "./openapi-schemas";
import { pathFieldsOf, type RestRoute } from "./route";

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

function errorResponse(code: ErrorCode) {
  const { retryable } = ERROR_TABLE[code];
  // Rate-limit headers come with every answer to a known key, so not with a 401.
  const headers = {
    "X-Request-Id": requestIdHeader,
    ...(code === "UNAUTHORIZED" ? {} : rateLimitHeaders(code === "RATE_LIMITED")),
    ...(code === "RATE_LIMITED" ? { "Retry-After": header("Seconds to wait.", { type: "integer" }, true) } : {}),
  };
  return {
    description: `${code}${retryable ? " (retryable)" : ""}`,
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
        headers: { "X-Request-Id": requestIdHeader, ...rateLimitHeaders(true) },
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
        OPERATION_ERRORS.map((code) => [ERROR_TABLE[code].status, { $ref: `#/components/responses/${code}` }]),
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
      responses: Object.fromEntries(OPERATION_ERRORS.map((code) => [code, errorResponse(code)])),
    },
  };
}
