import { Elysia } from "elysia";
import { ServiceError } from "../services/contract/errors";
import type { GatewayDeps } from "./deps";
import { SERVER_MAX_BODY_BYTES, settleConnection } from "./http/body";
import { errorResponse } from "./http/envelope";
import { checkReadiness } from "./http/health";
import { methodTable } from "./http/methods";
import { requestIdOf } from "./http/request-id";
import { handleRest } from "./rest/handle";
import { graphqlHandler } from "./graphql/handle";
import { GRAPHQL_PATH } from "./graphql/yoga";
import { MCP_PATH, mcpHandler } from "./mcp/handle";
import { restRoutes } from "./rest/routes";
import { portabilityRoutes } from "./portability/routes";
import { sessionRoutes } from "./session/routes";
import { pageResponder, webRoutes } from "./web/routes";

export const API_PREFIXES = ["/v1", "/api/v1"] as const;

/**
 * Composition of the gateway: health, the browser pages (docs, dashboard, their assets), the dashboard's session,
 * REST under both prefixes, GraphQL, MCP, one error fallback.
 */
export function createApp(deps: GatewayDeps, state: { stopping: boolean } = { stopping: false }) {
  const pages = pageResponder(deps.web);
  // Bodies over BODY_LIMIT_BYTES are the reader's to refuse, with the envelope (http/body.ts).
  const app = new Elysia({ serve: { maxRequestBodySize: SERVER_MAX_BODY_BYTES } })
    // A CORS preflight from an allowed origin is answered before routing; any other OPTIONS is routed (405).
    .onRequest(({ request }) => deps.origins.preflight(request))
    .use(webRoutes(deps.web, pages))
    .use(sessionRoutes(deps))
    .get("/healthz", () => ({ status: "ok" }))
    .get("/readyz", async ({ set }) => {
      const r = await checkReadiness(deps, () => state.stopping);
      set.status = r.ready ? 200 : 503;
      return { status: r.ready ? "ready" : "not ready", checks: r.checks };
    });

  for (const prefix of API_PREFIXES) {
    for (const r of restRoutes) {
      const handler = ({ request, params }: { request: Request; params: Record<string, string> }) =>
        handleRest(deps, r, request, params);
      app.route(r.method, prefix + r.path, handler, { parse: "none" });
    }
  }

  // Export, import and erase: streamed bodies, beyond the one-call REST adapter (portability/).
  for (const prefix of API_PREFIXES) {
    for (const r of portabilityRoutes) {
      const handler = ({ request }: { request: Request }) =>
        r.serve(deps, request).then((res) => settleConnection(request, res));
      app.route(r.method, prefix + r.path, handler, { parse: "none" });
    }
  }

  // GraphQL: its own handler (same guard, usage and envelope for 401/429), never the REST adapter.
  const graphql = graphqlHandler(deps, state, pages.graphiql);
  const graphqlRoute = ({ request }: { request: Request }) =>
    graphql(request).then((res) => settleConnection(request, res));
  app.all(GRAPHQL_PATH, graphqlRoute, { parse: "none" });
  // MCP: a third adapter over the contract, behind the same guard.
  const mcp = mcpHandler(deps);
  const mcpRoute = ({ request }: { request: Request }) => mcp(request).then((res) => settleConnection(request, res));
  app.all(MCP_PATH, mcpRoute, { parse: "none" });
  // Unknown routes, and anything thrown outside a handler: the same envelope, never HTML or a stack.
  const allowedOn = methodTable(app.routes);
  const fallbackResponse = (code: unknown, request: Request): Response => {
    const requestId = requestIdOf(request);
    if (code === "NOT_FOUND") {
      // The router says "not found" for a path it serves with other methods too: that is a 405.
      const allowed = allowedOn(new URL(request.url).pathname);
      if (allowed.length === 0) return errorResponse(new ServiceError("NOT_FOUND", "Route not found"), requestId);
      const allow = allowed.join(", ");
      const message = `${request.method} is not allowed here; allowed: ${allow}`;
      const error = new ServiceError("METHOD_NOT_ALLOWED", message, { allowed });
      return errorResponse(error, requestId, { Allow: allow });
    }
    if (code === "PARSE" || code === "VALIDATION")
      return errorResponse(
        new ServiceError("VALIDATION_ERROR", "Invalid request", { field: "body", constraint: "json" }),
        requestId,
      );
    deps.log.error("unhandled gateway error", { request_id: requestId, code: String(code) });
    return errorResponse(new ServiceError("INTERNAL_ERROR", "An unexpected error occurred"), requestId);
  };
  app.onError(({ code, request }) => settleConnection(request, fallbackResponse(code, request)));
  return app;
}
