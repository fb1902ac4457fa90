import { Elysia } from "elysia";
import { ServiceError } from "../services/contract/errors";
import type { GatewayDeps } from "./deps";
import { SERVER_MAX_BODY_BYTES, settleConnection } from "./http/body/body";
import { errorResponse } from "./http/envelope/envelope";
import { indexResponse } from "./http/envelope/index-page";
import { checkReadiness } from "./http/observability/health";
import { methodTable } from "./http/envelope/methods";
import { requestIdOf } from "./http/exchange/request-id";
import { unframedTraceHeader } from "./http/observability/request-trace";
import { restHandler } from "./rest/handle";
import { graphqlHandler } from "./graphql/handle";
import { GRAPHQL_PATH } from "./graphql/yoga";
import { MCP_PATH, mcpHandler } from "./mcp/handle";
import { restRoutes } from "./rest/routes";
import { portabilityHandler, portabilityRoutes } from "./portability/routes";
import { sessionRoutes } from "./session/routes";
import { pageResponder, webRoutes } from "./web/routes";

export const API_PREFIXES = ["/v1", "/api/v1"] as const;

/**
 * Composition of the gateway: the index at /, health, the browser pages (docs, dashboard, their assets), the
 * dashboard's session, REST under both prefixes, GraphQL, MCP, one error fallback.
 */
export function createApp(deps: GatewayDeps, state: { stopping: boolean } = { stopping: false }) {
  const pages = pageResponder(deps.web);
  // Bodies over BODY_LIMIT_BYTES are the reader's to refuse, with the envelope (http/body/body.ts).
  const app = new Elysia({ serve: { maxRequestBodySize: SERVER_MAX_BODY_BYTES } })
    // A CORS preflight of an API path from another origin is answered before routing; any other OPTIONS is routed.
    .onRequest(({ request }) => deps.origins.preflight(request))
    .use(webRoutes(deps.web, pages))
    .use(sessionRoutes(deps))
    .get("/", ({ request }) => indexResponse(request))
    .get("/healthz", () => ({ status: "ok" }))
    .get("/readyz", async ({ set }) => {
      const r = await checkReadiness(deps, () => state.stopping);
      set.status = r.ready ? 200 : 503;
      return { status: r.ready ? "ready" : "not ready", checks: r.checks };
    });

  // Every API surface runs in the one request frame (http/exchange): each adapter only translates its protocol.
  const rest = restRoutes.map((r) => ({ r, handler: restHandler(deps, r) }));
  for (const prefix of API_PREFIXES) {
    for (const { r, handler } of rest) app.route(r.method, prefix + r.path, handler, { parse: "none" });
  }
  // Export, import and erase: streamed bodies, beyond the one-call REST adapter (portability/).
  const streamed = portabilityRoutes.map((r) => ({ r, handler: portabilityHandler(deps, r) }));
  for (const prefix of API_PREFIXES) {
    for (const { r, handler } of streamed) {
      app.route(r.method, prefix + r.path, ({ request }: { request: Request }) => handler(request), { parse: "none" });
    }
  }
  const graphql = graphqlHandler(deps, state, pages.graphiql);
  app.all(GRAPHQL_PATH, ({ request }: { request: Request }) => graphql(request), { parse: "none" });
  const mcp = mcpHandler(deps);
  app.all(MCP_PATH, ({ request }: { request: Request }) => mcp(request), { parse: "none" });
  // Unknown routes, and anything thrown outside a handler: the same envelope, never HTML or a stack.
  const allowedOn = methodTable(app.routes);
  const fallbackResponse = async (code: unknown, request: Request): Promise<Response> => {
    const requestId = requestIdOf(request);
    if (code === "NOT_FOUND") return noRoute(deps, request, requestId, allowedOn(new URL(request.url).pathname));
    if (code === "PARSE" || code === "VALIDATION")
      return errorResponse(
        new ServiceError("VALIDATION_ERROR", "Invalid request", { field: "body", constraint: "json" }),
        requestId,
      );
    deps.log.error("unhandled gateway error", { request_id: requestId, code: String(code) });
    return errorResponse(new ServiceError("INTERNAL_ERROR", "An unexpected error occurred"), requestId);
  };
  app.onError(async ({ code, request }) => {
    const res = await fallbackResponse(code, request);
    for (const [name, value] of Object.entries(unframedTraceHeader(request))) res.headers.set(name, value);
    return settleConnection(request, res);
  });
  return app;
}

/** The usage route of requests no route serves: one label, whatever the method or path. */
export const NO_ROUTE = "(no route)";

/**
 * A request no route serves: 404, or 405 with `Allow` for a path served with other methods. With a
 * credential it passes the guard like any API request, so it counts against the key's windows (and in its
 * usage) and carries its `X-RateLimit-*` headers; a refused credential or a full window answers 401 or 429
 * instead. Without one there is no window to tell of.
 */
async function noRoute(deps: GatewayDeps, request: Request, requestId: string, allowed: string[]): Promise<Response> {
  const admission = request.headers.has("authorization") ? await deps.guard.admit(request, requestId) : null;
  const headers = admission?.headers ?? {};
  let res: Response;
  if (admission && !admission.ok) res = errorResponse(admission.error, requestId, headers);
  else if (allowed.length === 0)
    res = errorResponse(new ServiceError("NOT_FOUND", "Route not found"), requestId, headers);
  else {
    const allow = allowed.join(", ");
    const message = `${request.method} is not allowed here; allowed: ${allow}`;
    const error = new ServiceError("METHOD_NOT_ALLOWED", message, { allowed });
    res = errorResponse(error, requestId, { ...headers, Allow: allow });
  }
  const caller = admission?.identity?.caller;
  if (caller) deps.usage.record(caller, NO_ROUTE, res.status);
  return res;
}
