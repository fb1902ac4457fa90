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

/** A page whose body is one mount point, then its styles and scripts (all from /dashboard/assets). */
function page(title: string, mountId: string, assets: PageAssets): string {
  const url = (name: string) => escapeHtml(`${ASSETS_PATH}/${name}`);
  const styles = assets.styles.map((s) => `<link rel="stylesheet" href="${url(s)}">`);
  // Classic scripts in order (Scalar's bundle defines the global its starter uses); `defer` runs them after parsing.
  const scripts = assets.scripts.map((s) => `<script defer src="${url(s)}"></script>`);
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
    `<div id="${mountId}"></div>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** The three HTML pages, each built once from the asset list. */
export function htmlPages(pages: { dashboard: PageAssets; graphiql: PageAssets; docs: PageAssets }) {
  return {
    dashboard: page("Memory Storage Service · Dashboard", "app", pages.dashboard),
    graphiql: page("Memory Storage Service · GraphQL", "graphiql", pages.graphiql),
    docs: page("Memory Storage Service · API reference", "app", pages.docs),
  };
}
