import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { testStack } from "../harness";
import { browserPerFile, screenshot, watchedPage } from "./browser";

let baseUrl = "";
let adminKey = "";
const browser = browserPerFile();

beforeAll(async () => {
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  adminKey = stack.adminKey;
});

/** Sets the text of the GraphiQL editor (CodeMirror 5) shown inside `section` (the other tab's is `.hidden`). */
async function setEditor(page: Page, section: string, text: string): Promise<void> {
  const done = await page.evaluate(
    ({ section, text }) => {
      type Editor = { CodeMirror?: { setValue(v: string): void } };
      const doc = (globalThis as { document?: { querySelector(s: string): Editor | null } }).document!;
      const editor = doc.querySelector(`${section} .graphiql-editor:not(.hidden) .CodeMirror`);
      editor?.CodeMirror?.setValue(text);
      return Boolean(editor?.CodeMirror);
    },
    { section, text },
  );
  expect(done).toBe(true);
}

describe("the pages' Content-Security-Policy", () => {
  test("/docs, GraphiQL and the dashboard: no inline script, same-origin connections, nosniff", async () => {
    const pages = [
      { path: "/docs", accept: "text/html" },
      { path: "/graphql", accept: "text/html" },
      { path: "/dashboard", accept: "text/html" },
      { path: "/dashboard/keys", accept: "text/html" },
    ];
    for (const { path, accept } of pages) {
      const res = await fetch(baseUrl + path, { headers: { accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const csp = res.headers.get("content-security-policy") ?? "";
      for (const directive of [
        "script-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ])
        expect(csp.split("; ")).toContain(directive);
      expect(csp).not.toContain("unsafe-eval");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await res.text();
      // Every script is a file from our origin: no inline code, no other host.
      expect(html).not.toMatch(/<script(?![^>]*\ssrc="\/dashboard\/assets\/)[^>]*>/);
      expect(html).not.toMatch(/https?:\/\//);
    }
  });
});

describe("/docs", () => {
  test("renders the API reference from /docs/json; nothing offsite; no CSP report", async () => {
    const w = await watchedPage(browser());
    try {
      await w.page.goto(`${baseUrl}/docs`);
      await w.page.getByText("Create an API key", { exact: false }).first().waitFor({ timeout: 30_000 });
      await w.page.getByText("List the tenant's API keys", { exact: false }).first().waitFor();
      await screenshot(w.page, "docs");
      expect(w.offsite).toEqual([]);
      // zod's eval probe in Scalar's bundle is answered when the bundle is served, so the CSP refuses nothing.
      expect(w.cspViolations).toEqual([]);
    } finally {
      await w.context.close();
    }
  }, 60_000);
});

describe("GraphiQL at /graphql", () => {
  test("renders, runs { __typename } with the key in its headers editor; nothing offsite, no CSP report", async () => {
    const w = await watchedPage(browser());
    try {
      await w.page.goto(`${baseUrl}/graphql`);
      await w.page.locator(".graphiql-container").waitFor({ timeout: 30_000 });
      // Without a session or a key, GraphiQL sends nothing (test/browser/graphiql.test.ts); its editors settle.
      await w.page.waitForLoadState("networkidle");
      // Named: GraphiQL keeps the last operation name it saw (RecentMemories) for an anonymous query.
      await setEditor(w.page, "section.graphiql-query-editor", "query Typename { __typename }");
      await w.page.getByRole("button", { name: "Headers", exact: true }).click();
      await setEditor(w.page, "section.graphiql-editor-tool", JSON.stringify({ Authorization: `Bearer ${adminKey}` }));
      // Its editors tell it of a change 100 ms later; then the name is in its storage.
      await w.page.waitForFunction(() => {
        const storage = (globalThis as { localStorage?: { getItem(k: string): string | null } }).localStorage;
        return storage?.getItem("graphiql:operationName") === "Typename";
      });
      const answered = w.page.waitForResponse((r) => r.url().endsWith("/graphql") && r.request().method() === "POST");
      await w.page.locator(".graphiql-execute-button").click();
      const response = await answered;
      expect({ status: response.status(), body: await response.text() }).toEqual({
        status: 200,
        body: '{"data":{"__typename":"Query"}}',
      });
      const result = w.page.locator("section.result-window");
      await result.getByText('"Query"').waitFor({ timeout: 10_000 });
      expect(await result.innerText()).toContain('"__typename": "Query"');
      await screenshot(w.page, "graphiql");
      expect(w.offsite).toEqual([]);
      expect(w.cspViolations).toEqual([]);
    } finally {
      await w.context.close();
    }
  }, 60_000);
});
