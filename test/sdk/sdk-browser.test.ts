import { expect, test } from "bun:test";
import { extname, resolve } from "node:path";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { browserPerFile, watchedPage } from "../browser/browser";
import { buildClient, PACKAGE_DIR } from "./sdk-build";

const browser = browserPerFile();

/**
 * The built client in a real browser, loaded as ES modules from the service's own origin (the test serves
 * dist/ under /__sdk/ through the page's router), so its calls are same-origin and need no CORS.
 */
test("the built client runs in Chromium: create, get, list and a typed error", async () => {
  await buildClient();
  const stack = await testStack();
  const { key } = await newTenant(stack.baseUrl, stack.adminKey);
  const { page, offsite, errors, context } = await watchedPage(browser());
  try {
    await page.route(`${stack.baseUrl}/__sdk/**`, async (route) => {
      const path = new URL(route.request().url()).pathname.slice("/__sdk/".length);
      if (path === "page.html")
        return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>client</title>" });
      const file = Bun.file(resolve(PACKAGE_DIR, "dist", path));
      if (extname(path) !== ".js" || !(await file.exists())) return route.fulfill({ status: 404, body: "" });
      return route.fulfill({ contentType: "text/javascript", body: await file.text() });
    });
    await page.goto(`${stack.baseUrl}/__sdk/page.html`);
    const out = await page.evaluate(async (apiKey: string) => {
      const sdk = await import(`${location.origin}/__sdk/index.js`);
      const client = sdk.createClient({ baseUrl: location.origin, apiKey });
      const made = await client.memories.create({ content: "from the browser" });
      const got = await client.memories.get(made.id);
      const page = await client.memories.list({ limit: 5 });
      const err = await client.memories.get("nope").catch((e: Error) => e);
      return {
        content: got.content,
        total: page.total,
        code: (err as { code?: string }).code,
        typed: err instanceof sdk.MemoryServiceError,
      };
    }, key);
    expect(out).toEqual({ content: "from the browser", total: 1, code: "NOT_FOUND", typed: true });
    expect(offsite).toEqual([]);
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
  } finally {
    await context.close();
  }
}, 120_000);
