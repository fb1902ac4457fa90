import { Elysia } from "elysia";
import { swagger } from "@elysiajs/swagger";
import { ServiceError } from "../services/contract/errors";
import type { GatewayDeps } from "./deps";
import { errorResponse } from "./http/envelope";
import { checkReadiness } from "./http/health";
import { requestIdOf } from "./http/request-id";
import { handleRest } from "./rest/handle";
import { graphqlHandler } from "./graphql/handle";
import { GRAPHQL_PATH } from "./graphql/yoga";
import { openApiDetail } from "./rest/openapi";
import { restRoutes } from "./rest/routes";

export const API_PREFIXES = ["/v1", "/api/v1"] as const;

/** Composition of the gateway: health, docs, REST under both prefixes, one error fallback. */
export function createApp(deps: GatewayDeps, state: { stopping: boolean } = { stopping: false }) {
  const app = new Elysia()
    .use(
      swagger({
        path: "/docs",
        provider: "scalar",
        documentation: {
          info: { title: "Memory Storage Service", version: "1.0.0", description: "Multi-tenant memory store for AI applications." },
          components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "svc_live_… or svc_test_…" } } },
          security: [{ bearer: [] }],
        },
        exclude: ["/healthz", "/readyz", /^\/api\/v1/],
      }),
    )
    .get("/healthz", () => ({ status: "ok" }), { detail: { hide: true } })
    .get(
      "/readyz",
      async ({ set }) => {
        const r = await checkReadiness(deps, () => state.stopping);
        set.status = r.ready ? 200 : 503;
        return { status: r.ready ? "ready" : "not ready", checks: r.checks };
      },
      { detail: { hide: true } },
    );

  for (const prefix of API_PREFIXES) {
    for (const r of restRoutes) {
      const handler = ({ request, params }: { request: Request; params: Record<string, string> }) => handleRest(deps, r, request, params);
      const options = { parse: "none" as const, detail: openApiDetail(r, prefix) };
      app.route(r.method, prefix + r.path, handler, options);
    }
  }

  // GraphQL: its own handler (same guard, usage and envelope for 401/429), never the REST adapter.
  const graphql = graphqlHandler(deps, state);
  app.all(GRAPHQL_PATH, ({ request }) => graphql(request), { parse: "none", detail: { hide: true } });
  // Unknown routes, and anything thrown outside a handler: the same envelope, never HTML or a stack.
  app.onError(({ code, request }) => {
    const requestId = requestIdOf(request);
    if (code === "NOT_FOUND") return errorResponse(new ServiceError("NOT_FOUND", "Route not found"), requestId);
    if (code === "PARSE" || code === "VALIDATION") return errorResponse(new ServiceError("VALIDATION_ERROR", "Invalid request", { field: "body", constraint: "json" }), requestId);
    deps.log.error("unhandled gateway error", { request_id: requestId, code: String(code) });
    return errorResponse(new ServiceError("INTERNAL_ERROR", "An unexpected error occurred"), requestId);
  });
  return app;
}
