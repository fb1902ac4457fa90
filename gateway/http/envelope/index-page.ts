import { version } from "../../../package.json";
import { pageHeaders } from "../../web/pages";
import { roundMs } from "./envelope";
import { requestIdOf } from "../exchange/request-id";

/** What `GET /` names: the service, its version, and where to go next. */
export const SERVICE_NAME = "Memory Storage Service";

export const INDEX_LINKS = {
  docs: "/docs",
  openapi: "/docs/json",
  graphql: "/graphql",
  dashboard: "/dashboard",
  healthz: "/healthz",
} as const;

const LABELS: Record<keyof typeof INDEX_LINKS, string> = {
  docs: "API reference (REST, OpenAPI)",
  openapi: "OpenAPI 3.1 document",
  graphql: "GraphQL (GraphiQL in a browser)",
  dashboard: "Dashboard",
  healthz: "Liveness",
};

/** A browser asks for HTML before JSON; an API client, curl or fetch for JSON or anything. */
function wantsHtml(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  const html = accept.indexOf("text/html");
  const json = accept.indexOf("application/json");
  return html >= 0 && (json < 0 || html < json);
}

const html = [
  "<!doctype html>",
  '<html lang="en">',
  "<head>",
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  `<title>${SERVICE_NAME}</title>`,
  '<link rel="icon" href="data:,">',
  "</head>",
  "<body>",
  `<h1>${SERVICE_NAME}</h1>`,
  `<p>Version ${version}. REST under <code>/v1</code>, GraphQL at <code>/graphql</code>, MCP at <code>/mcp</code>.</p>`,
  "<ul>",
  ...Object.entries(INDEX_LINKS).map(
    ([name, href]) => `<li><a href="${href}">${LABELS[name as keyof typeof INDEX_LINKS]}</a> <code>${href}</code></li>`,
  ),
  "</ul>",
  "</body>",
  "</html>",
  "",
].join("\n");

/**
 * `GET /`: a small index instead of a 404, for whoever opens the base URL first. JSON in the envelope of every
 * answer; HTML, with the headers of the gateway's other pages, when a browser asks for it. It holds no tenant data,
 * so it needs no key.
 */
export function indexResponse(request: Request): Response {
  const started = performance.now();
  const requestId = requestIdOf(request);
  if (wantsHtml(request))
    return new Response(html, { headers: { ...pageHeaders(false), "X-Request-Id": requestId, Vary: "Accept" } });
  const meta = { request_id: requestId, latency_ms: roundMs(performance.now() - started) };
  const body = { data: { name: SERVICE_NAME, version, links: INDEX_LINKS }, meta };
  return new Response(JSON.stringify(body), {
    headers: { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": requestId, Vary: "Accept" },
  });
}
