import { Elysia } from "elysia";
import { ServiceError } from "../../services/contract/errors";
import { errorResponse } from "../http/envelope/envelope";
import { requestIdOf } from "../http/exchange/request-id";
import { openApiDocument } from "../rest/openapi";
import { sessionIdOf } from "../session/cookie";
import { restRoutes } from "../rest/routes";
import { ASSETS_PATH, type WebAssets } from "./assets";
import { htmlPages, pageHeaders } from "./pages";

export const DASHBOARD_PATH = "/dashboard";
export const DASHBOARD_API_PATH = `${DASHBOARD_PATH}/api`;

/** Content-hashed names never change content: a year, and no revalidation. */
const ASSET_HEADERS = { "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" };

const notFound = (request: Request, what: string) =>
  errorResponse(new ServiceError("NOT_FOUND", `${what} not found`), requestIdOf(request));

/** The browser pages' HTML with their headers: a new Response per request, from text built once. */
export function pageResponder(web: WebAssets) {
  const html = htmlPages(web.pages);
  const respond = (body: string, inlineStyles: boolean, request: Request, extra: Record<string, string> = {}) =>
    new Response(body, { headers: { ...pageHeaders(inlineStyles), ...extra, "X-Request-Id": requestIdOf(request) } });
  return {
    dashboard: (request: Request) => respond(html.dashboard, false, request),
    // Which GraphiQL page depends on the cookie: a cache must not give one visitor's page to another.
    graphiql: (request: Request) =>
      respond(sessionIdOf(request) ? html.graphiqlWithSession : html.graphiql, true, request, { Vary: "Cookie" }),
    docs: (request: Request) => respond(html.docs, true, request),
  };
}

export type PageResponder = ReturnType<typeof pageResponder>;

/**
 * /docs (Scalar's API reference), /docs/json (the OpenAPI document), the dashboard's single page at /dashboard and
 * every path below it (the app routes in the browser), and the built assets at /dashboard/assets/<name>. No key is
 * needed for any of them: they hold no tenant data.
 */
export function webRoutes(web: WebAssets, pages: PageResponder) {
  const document = JSON.stringify(openApiDocument(restRoutes));
  return new Elysia()
    .get("/docs", ({ request }) => pages.docs(request))
    .get("/docs/json", ({ request }) => {
      const headers = { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": requestIdOf(request) };
      return new Response(document, { headers });
    })
    .get(`${ASSETS_PATH}/:name`, ({ request, params }) => {
      const asset = web.files.get(params.name);
      if (!asset) return notFound(request, "Asset");
      const gzip = asset.gzip && /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
      const headers: Record<string, string> = {
        ...ASSET_HEADERS,
        "Content-Type": asset.type,
        "X-Request-Id": requestIdOf(request),
      };
      if (asset.gzip) headers.Vary = "Accept-Encoding";
      if (gzip) headers["Content-Encoding"] = "gzip";
      return new Response(gzip ? asset.gzip : asset.body, { headers });
    })
    .get(DASHBOARD_PATH, ({ request }) => pages.dashboard(request))
    .get(`${DASHBOARD_PATH}/*`, ({ request }) => {
      // The app's own URLs get the page; a missing asset or API route gets the JSON 404.
      const path = new URL(request.url).pathname;
      if (path.startsWith(`${ASSETS_PATH}/`) || path.startsWith(`${DASHBOARD_API_PATH}/`))
        return notFound(request, "Route");
      return pages.dashboard(request);
    });
}
