import { expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { newTenant } from "../api";
import { testStack } from "../harness";
import { screenshot, seriousA11yViolations, watchedPage, type Watched } from "./browser";

/** The options of every dashboard browser test: a stalled page request gets two more tries (browser.ts). */
const BROWSER_TEST = { timeout: 60_000, retry: 2 } as const;

/**
 * `test`, for a dashboard browser test (BROWSER_TEST's timeout and retries). An uncaught error inside
 * playwright-core's connection (seen: "Object with guid response@… was not bound in the connection") fails the
 * running attempt at once and Bun starts the next one; the failed attempt's own promise settles later, and Bun would
 * report it as an unhandled error between tests. An attempt that ends after a later one has started is therefore
 * quiet; the last attempt's end is reported.
 */
export function browserTest(name: string, run: () => Promise<void>): void {
  let latest = 0;
  test(
    name,
    () => {
      const attempt = ++latest;
      return run().catch((err) => {
        if (attempt === latest) throw err;
      });
    },
    BROWSER_TEST,
  );
}

/**
 * Runs a test on a fresh watched page, then checks that nothing left the machine, no CSP rule broke and no script
 * failed. Chromium logs every answer >= 400 to a fetch as a console error: those the test expects are `expected`.
 */
export async function withPage(
  browser: () => Browser,
  run: (w: Watched) => Promise<void>,
  expected = /status of 401/,
): Promise<void> {
  return runOnPage(browser, run, expected);
}

async function runOnPage(browser: () => Browser, run: (w: Watched) => Promise<void>, expected: RegExp) {
  const w = await watchedPage(browser());
  try {
    await run(w).catch(async (err) => {
      await screenshot(w.page, "dashboard-failed").catch(() => undefined); // the page may be gone with the error
      throw new Error(`${err}\nrequests still pending: ${[...w.pending].join(", ") || "none"}`);
    });
    expect(w.offsite).toEqual([]);
    expect(w.cspViolations).toEqual([]);
    expect(w.errors.filter((e) => !expected.test(e))).toEqual([]);
  } finally {
    await w.context.close();
  }
}

/** Opens the dashboard and signs in with `key`; resolves once the signed-in navigation is there. */
export async function signInWith(page: Page, key: string): Promise<void> {
  const { baseUrl } = await testStack();
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in, then waits for the navigation. */
export async function signedIn(page: Page, key: string): Promise<void> {
  await signInWith(page, key);
  await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
}

/** The page's level-1 heading. */
export const heading = (page: Page) => page.getByRole("heading", { level: 1 });

/** Follows a navigation link and waits for the page's heading. */
export async function openPage(page: Page, title: string): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: title, exact: true }).click();
  await heading(page).getByText(title, { exact: true }).waitFor();
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

/** An admin key (every scope) of a new tenant, so a test sees only its own keys, memories and usage. */
export async function adminOfNewTenant() {
  const stack = await testStack();
  return newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
}

/** Polls `probe` until it returns true (an explicit wait on server state, never a fixed sleep). */
export async function eventually(probe: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await Bun.sleep(50);
  }
  throw new Error(`not within ${timeoutMs} ms: ${what}`);
}
