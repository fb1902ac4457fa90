import { beforeAll, expect, test } from "bun:test";
import { testStack } from "../harness";
import { version } from "../../package.json";

/** `GET /` greets whoever opens the base URL: an index, not `404 Route not found`. */
let baseUrl = "";
beforeAll(async () => {
  baseUrl = (await testStack()).baseUrl;
});

test("GET / answers JSON in the envelope: name, version, links that each answer 200", async () => {
  for (const accept of [undefined, "application/json", "*/*"]) {
    const res = await fetch(`${baseUrl}/`, { headers: accept ? { accept } : {} });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = await res.json();
    expect(body.data).toEqual({
      name: "Memory Storage Service",
      version,
      links: {
        docs: "/docs",
        openapi: "/docs/json",
        graphql: "/graphql",
        dashboard: "/dashboard",
        healthz: "/healthz",
      },
    });
    expect(body.meta.request_id).toBe(res.headers.get("x-request-id"));
  }
  const { data } = await (await fetch(`${baseUrl}/`)).json();
  for (const href of Object.values(data.links) as string[]) {
    const res = await fetch(baseUrl + href, { headers: { accept: "text/html" } });
    expect({ href, status: res.status }).toEqual({ href, status: 200 });
  }
});

test("a browser gets the same index as HTML, with the CSP of the gateway's other pages", async () => {
  const res = await fetch(`${baseUrl}/`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const csp = res.headers.get("content-security-policy") ?? "";
  for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"])
    expect(csp.split("; ")).toContain(directive);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("vary")).toContain("Accept");
  const html = await res.text();
  expect(html).toContain(`Version ${version}`);
  for (const href of ["/docs", "/graphql", "/dashboard", "/healthz"]) expect(html).toContain(`href="${href}"`);
  expect(html).not.toContain("<script");
});

test("other methods on / are a 405 with Allow, in the envelope", async () => {
  const res = await fetch(`${baseUrl}/`, { method: "POST" });
  expect(res.status).toBe(405);
  expect(res.headers.get("allow")).toContain("GET");
  expect((await res.json()).error.code).toBe("METHOD_NOT_ALLOWED");
});
