import type { TSchema } from "@sinclair/typebox";
import type { RestRoute } from "./route";

const ENVELOPE_NOTE =
  "Every response is an envelope: `data` + `meta.request_id` " +
  "(+ `latency_ms`, and `total/limit/offset/has_more` on lists).";

/** OpenAPI details built from the contract schemas, so the docs cannot drift from validation. */
// OpenAPI accepts JSON Schema; Elysia's types are narrower.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openApiDetail(r: RestRoute, prefix: string): any {
  const input = r.op.input as TSchema;
  const props = (input.properties ?? {}) as Record<string, TSchema>;
  const pathParams = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const parameters: Record<string, unknown>[] = pathParams.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (r.method === "GET" || r.method === "DELETE") {
    for (const [name, schema] of Object.entries(props)) {
      if (!pathParams.includes(name)) parameters.push({ name, in: "query", required: false, schema });
    }
  }
  const scope = r.op.scope ? `Scope: \`${r.op.scope}\`. ` : "";
  return {
    summary: r.op.summary,
    description: scope + ENVELOPE_NOTE,
    tags: [r.tag],
    hide: prefix !== "/v1",
    parameters,
    ...(r.method === "POST" || r.method === "PATCH"
      ? { requestBody: { required: true, content: { "application/json": { schema: input } } } }
      : {}),
    responses: {
      200: {
        description: "Success",
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: {
                data: r.list
                  ? { type: "array", items: (r.op.output as TSchema).properties?.items?.items }
                  : r.op.output,
                meta: { type: "object" },
              },
            },
          },
        },
      },
      400: { description: "VALIDATION_ERROR" },
      401: { description: "UNAUTHORIZED" },
      403: { description: "FORBIDDEN" },
      404: { description: "NOT_FOUND" },
      429: { description: "RATE_LIMITED" },
    },
  };
}
