import { ASSETS_PATH, type PageAssets } from "./assets";

/**
 * The Content-Security-Policy of the gateway's HTML pages: scripts and every connection from our own origin only,
 * no inline script, no plugins, no <base>, no framing. GraphiQL and Scalar set styles inline (style attributes
 * and <style> elements they create), so their pages allow inline styles; the dashboard sets its styles through
 * the DOM, which CSP does not restrict, and allows none. Fonts and images may be data: URLs (GraphiQL's fonts).
 */
export function contentSecurityPolicy(inlineStyles: boolean): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self'${inlineStyles ? " 'unsafe-inline'" : ""}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
}

/** The headers every HTML page of the gateway is served with. */
export const pageHeaders = (inlineStyles: boolean): Record<string, string> => ({
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": contentSecurityPolicy(inlineStyles),
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  // The page names the current asset hashes: a browser must ask again after a deployment.
  "Cache-Control": "no-cache",
});

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A page whose body is one mount point, then its styles and scripts (all from /dashboard/assets). `mountData` is
 * what the server tells the page's script as data-* attributes of the mount point (no inline script under the CSP).
 */
function page(title: string, mountId: string, assets: PageAssets, mountData: Record<string, string> = {}): string {
  const url = (name: string) => escapeHtml(`${ASSETS_PATH}/${name}`);
  const styles = assets.styles.map((s) => `<link rel="stylesheet" href="${url(s)}">`);
  // Classic scripts in order (Scalar's bundle defines the global its starter uses); `defer` runs them after parsing.
  const scripts = assets.scripts.map((s) => `<script defer src="${url(s)}"></script>`);
  const data = Object.entries(mountData)
    .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
    .join("");
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    // No icon: without this line browsers ask for /favicon.ico, which the gateway does not serve.
    '<link rel="icon" href="data:,">',
    ...styles,
    ...scripts,
    "</head>",
    "<body>",
    `<div id="${mountId}"${data}></div>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/**
 * The three HTML pages, each built once from the asset list. GraphiQL's comes in two: for a request with the
 * dashboard's session cookie (the page asks for that session and uses it) and without one (the page asks for a
 * key, and sends nothing before it has one).
 */
export function htmlPages(pages: { dashboard: PageAssets; graphiql: PageAssets; docs: PageAssets }) {
  const graphiqlTitle = "Memory Storage Service · GraphQL";
  return {
    dashboard: page("Memory Storage Service · Dashboard", "app", pages.dashboard),
    graphiql: page(graphiqlTitle, "graphiql", pages.graphiql),
    graphiqlWithSession: page(graphiqlTitle, "graphiql", pages.graphiql, { session: "cookie" }),
    docs: page("Memory Storage Service · API reference", "app", pages.docs),
  };
}
