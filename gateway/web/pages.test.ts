import { describe, expect, test } from "bun:test";
import { contentSecurityPolicy, htmlPages, pageHeaders } from "./pages";
import { pageResponder } from "./routes";

const assets = { scripts: ["a-1.js", "b-2.js"], styles: ["a-3.css"] };

describe("HTML pages", () => {
  test("the dashboard's CSP allows no inline style; GraphiQL's and Scalar's allow inline styles only", () => {
    const strict = contentSecurityPolicy(false).split("; ");
    const loose = contentSecurityPolicy(true).split("; ");
    for (const csp of [strict, loose]) {
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp.join(";")).not.toContain("unsafe-eval");
    }
    expect(strict).toContain("style-src 'self'");
    expect(loose).toContain("style-src 'self' 'unsafe-inline'");
    expect(loose.filter((d) => d.includes("unsafe-inline"))).toEqual(["style-src 'self' 'unsafe-inline'"]);
    expect(pageHeaders(false)).toMatchObject({ "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache" });
  });

  test("a page: its styles, then its scripts in order, all from /dashboard/assets; no inline script", () => {
    const { dashboard } = htmlPages({ dashboard: assets, graphiql: assets, docs: assets });
    expect(dashboard).toContain('<html lang="en">');
    expect(dashboard).toContain('<link rel="stylesheet" href="/dashboard/assets/a-3.css">');
    const scripts = [...dashboard.matchAll(/<script([^>]*)>(.*?)<\/script>/g)];
    expect(scripts.map((m) => m[1])).toEqual([
      ' defer src="/dashboard/assets/a-1.js"',
      ' defer src="/dashboard/assets/b-2.js"',
    ]);
    expect(scripts.map((m) => m[2])).toEqual(["", ""]);
    expect(dashboard).toContain('<div id="app"></div>');
  });

  test("asset names are escaped into the markup", () => {
    const odd = { scripts: ['x"><script>alert(1)</script>.js'], styles: [] };
    const { docs } = htmlPages({ dashboard: odd, graphiql: odd, docs: odd });
    expect(docs).not.toContain("<script>alert");
    expect(docs).toContain("&quot;&gt;&lt;script&gt;");
  });

  test("GraphiQL's page says whether its request carried a session cookie, and varies by cookie", async () => {
    const web = { files: new Map(), pages: { dashboard: assets, graphiql: assets, docs: assets } };
    const pages = pageResponder(web);
    const page = (cookie?: string) =>
      pages.graphiql(new Request("http://x/graphql", { headers: cookie ? { cookie } : {} }));
    const signedIn = page(`other=1; dashboard_session=${"a".repeat(43)}`);
    expect(await signedIn.text()).toContain('<div id="graphiql" data-session="cookie"></div>');
    expect(signedIn.headers.get("vary")).toBe("Cookie");
    for (const cookie of [undefined, "dashboard_session=not-an-id", "other=1"])
      expect(await page(cookie).text()).toContain('<div id="graphiql"></div>');
  });
});
