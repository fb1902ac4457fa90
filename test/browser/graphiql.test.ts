import { beforeAll, describe, expect } from "bun:test";
import type { Page, Request } from "playwright-core";
import { testStack } from "../harness";
import type { Stack } from "../../scripts/stack/launch";
import { browserPerFile, screenshot, watchedPage } from "./browser";
import { browserTest, signedIn } from "./dashboard-session";

let stack: Stack;
const browser = browserPerFile();

beforeAll(async () => {
  stack = await testStack();
});

/** A request the page sent: what a test checks about credentials. */
interface Sent {
  method: string;
  path: string;
  authorization: string | undefined;
  csrf: string | undefined;
}

/**
 * Everything on `page` from now on that a person would see as a failure: console errors, uncaught exceptions,
 * answers >= 400 and requests that failed; and every request sent, with its credentials.
 */
function track(page: Page, baseUrl: string) {
  const failures: string[] = [];
  const sent: Sent[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") failures.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => failures.push(`uncaught: ${err.message}`));
  // Requests the previous page had in flight are cut by the navigation: only this page's own count.
  const ours = new Set<Request>();
  page.on("requestfailed", (r) => {
    if (ours.has(r)) failures.push(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) failures.push(`${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  page.on("request", (r) => {
    ours.add(r);
    const headers = r.headers();
    const path = r.url().startsWith(baseUrl) ? r.url().slice(baseUrl.length) : r.url();
    sent.push({ method: r.method(), path, authorization: headers.authorization, csrf: headers["x-csrf-token"] });
  });
  return { failures, sent };
}

/** Runs `run`; an error it throws also lists what had gone wrong on the page by then. */
async function explained(failures: string[], run: () => Promise<void>): Promise<void> {
  await run().catch((err) => {
    throw new Error(`${err}\nseen on the page: ${JSON.stringify(failures, null, 2)}`);
  });
}

/** The GraphQL operations the page posted. */
const posts = (sent: Sent[]) => sent.filter((s) => s.method === "POST" && s.path === "/graphql");

/** Opens GraphiQL's Docs panel and waits for the root query type's fields. */
async function expectSchemaInDocs(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Show Documentation Explorer" }).click();
  const docs = page.locator(".graphiql-doc-explorer");
  await docs
    .locator(".graphiql-doc-explorer-type-name", { hasText: /^Query$/ })
    .first()
    .click();
  await docs.locator(".graphiql-doc-explorer-field-name", { hasText: /^memories$/ }).waitFor({ timeout: 10_000 });
  expect(await docs.innerText()).not.toContain("Error fetching schema");
}

/** Runs the page's example query (what a person does first) and waits for its data in the result pane. */
async function runExample(page: Page): Promise<unknown> {
  const answered = page.waitForResponse((r) => r.url().endsWith("/graphql") && r.request().method() === "POST");
  await page.locator(".graphiql-execute-button").click();
  const response = await answered;
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data?: { memories?: { total: number } }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  await page.locator("section.result-window").getByText('"total"').waitFor({ timeout: 10_000 });
  return body.data?.memories?.total;
}

describe("GraphiQL at /graphql opens ready", () => {
  browserTest("signed in on the dashboard: the session is used, the schema loads, a query shows data", async () => {
    const w = await watchedPage(browser());
    try {
      await signedIn(w.page, stack.adminKey);
      // Watched from here: signing in (its 401 for "no session yet" included) is the dashboard's part.
      const { failures, sent } = track(w.page, stack.baseUrl);
      await explained(failures, async () => {
        await w.page.goto(`${stack.baseUrl}/graphql`);
        await w.page.getByText("Signed in with the dashboard's session").waitFor({ timeout: 15_000 });
        await expectSchemaInDocs(w.page);
        expect(typeof (await runExample(w.page))).toBe("number");
        await screenshot(w.page, "graphiql-signed-in");
      });
      // Every operation rode on the cookie and carried the session's CSRF token; no key was sent.
      expect(posts(sent).length).toBeGreaterThanOrEqual(2);
      for (const s of posts(sent)) expect([s.authorization, typeof s.csrf]).toEqual([undefined, "string"]);
      expect(failures).toEqual([]);
      expect(w.offsite).toEqual([]);
      expect(w.cspViolations).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  browserTest("signed out: a prompt for a key, no request with a placeholder; then schema and data", async () => {
    const w = await watchedPage(browser());
    try {
      const { failures, sent } = track(w.page, stack.baseUrl);
      await explained(failures, async () => {
        await w.page.goto(`${stack.baseUrl}/graphql`);
        await w.page.locator(".graphiql-container").waitFor({ timeout: 15_000 });
        await w.page.getByLabel("API key").waitFor({ timeout: 5_000 });
        await w.page.waitForLoadState("networkidle");
      });
      // Nothing is asked of /graphql before there is a key to ask with.
      expect(posts(sent)).toEqual([]);
      expect(await w.page.locator("section.result-window").innerText()).not.toContain("UNAUTHORIZED");
      await screenshot(w.page, "graphiql-signed-out");

      await explained(failures, async () => {
        await w.page.getByLabel("API key").fill(stack.adminKey);
        await w.page.getByRole("button", { name: "Use key" }).click();
        await w.page.getByText("Using a key held by this page only").waitFor({ timeout: 5_000 });
        await expectSchemaInDocs(w.page);
        expect(typeof (await runExample(w.page))).toBe("number");
      });
      for (const s of posts(sent)) expect(s.authorization).toBe(`Bearer ${stack.adminKey}`);
      expect(sent.filter((s) => /YOUR_API_KEY/.test(s.authorization ?? ""))).toEqual([]);
      // The key stays in the page's memory: not in storage, not in a cookie, not left in the input.
      const stored = await w.page.evaluate(() => {
        const g = globalThis as { document?: { cookie: string }; localStorage?: object; sessionStorage?: object };
        return JSON.stringify([g.document?.cookie, { ...g.localStorage }, { ...g.sessionStorage }]);
      });
      expect(stored).not.toContain(stack.adminKey);
      const values = await w.page
        .locator("input")
        .evaluateAll((els) => els.map((e) => (e as { value?: string }).value));
      expect(values).not.toContain(stack.adminKey);
      expect(failures).toEqual([]);
      expect(w.offsite).toEqual([]);
      expect(w.cspViolations).toEqual([]);
    } finally {
      await w.context.close();
    }
  });
});
