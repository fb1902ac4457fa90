import { beforeAll, describe, expect } from "bun:test";
import type { Page } from "playwright-core";
import { newTenant } from "../api";
import { testStack } from "../harness";
import type { Stack } from "../../scripts/stack/launch";
import { browserPerFile, screenshot, seriousA11yViolations } from "./browser";
import { browserTest, signInWith, withPage as withWatchedPage } from "./dashboard-session";

let stack: Stack;
const browser = browserPerFile();
const ALL_PAGES = ["Keys", "Usage", "Memories", "Tags", "Entities", "Search", "Live", "Settings"];

beforeAll(async () => {
  stack = await testStack();
});

const withPage = (run: Parameters<typeof withWatchedPage>[1], expected?: RegExp) =>
  withWatchedPage(browser, run, expected);

const navLinks = async (page: Page) =>
  (await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link").allInnerTexts()).map((t) => t.trim());

/** Runs fetch in the page (same origin, so the session cookie goes along) and returns the status. */
const fetchStatus = (page: Page, path: string, init: { method: string; headers?: Record<string, string> }) =>
  page.evaluate(
    async ({ path, init }) =>
      (await fetch(path, { ...init, body: JSON.stringify({ query: "{ __typename }" }) })).status,
    { path, init },
  );

// Now and then one of the page's requests stalls until the test's timeout (seen about once in ten runs; open):
// each test is given two more tries, so a real failure still fails.
describe("dashboard", () => {
  browserTest("sign-in page: a labelled key input, and no serious accessibility violation", async () => {
    await withPage(async ({ page }) => {
      await page.goto(`${stack.baseUrl}/dashboard`);
      await expect(page.getByLabel("API key").getAttribute("type")).resolves.toBe("password");
      await screenshot(page, "dashboard-sign-in");
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  });

  browserTest("an admin key signs in: every page in the navigation, a first query through the session", async () => {
    await withPage(async ({ page, context }) => {
      await signInWith(page, stack.adminKey);
      await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
      expect(await navLinks(page)).toEqual(ALL_PAGES);
      await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("Memories");
      // The typed query went over POST /graphql with the cookie and the CSRF token.
      await page
        .getByTestId("memory-count")
        .getByText(/match(es)?\./)
        .waitFor();
      await page.getByRole("link", { name: "Tags" }).click();
      await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("Tags");
      expect(new URL(page.url()).pathname).toBe("/dashboard/tags");
      await screenshot(page, "dashboard-shell");
      expect(await seriousA11yViolations(page)).toEqual([]);

      // The key is nowhere in the browser: only an HttpOnly, SameSite=Strict cookie holding a random id.
      const cookies = await context.cookies();
      expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([["dashboard_session", true, "Strict"]]);
      expect(cookies[0]!.value).not.toContain(stack.adminKey);
      const stored = await page.evaluate(() => {
        const g = globalThis as { document?: { cookie: string }; localStorage?: object; sessionStorage?: object };
        return JSON.stringify([g.document?.cookie, { ...g.localStorage }, { ...g.sessionStorage }]);
      });
      expect(stored).not.toContain(stack.adminKey);
      expect(stored).not.toContain(cookies[0]!.value);

      // A reload keeps the session, and the URL's page.
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("Tags");
    });
  });

  browserTest("a POST to /graphql with the cookie but without the right X-CSRF-Token is 403", async () => {
    await withPage(async ({ page }) => {
      await signInWith(page, stack.adminKey);
      await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
      const json = { "content-type": "application/json" };
      expect(await fetchStatus(page, "/graphql", { method: "POST", headers: json })).toBe(403);
      const wrong = { ...json, "x-csrf-token": "x".repeat(43) };
      expect(await fetchStatus(page, "/graphql", { method: "POST", headers: wrong })).toBe(403);
    }, /status of (401|403)/);
  });

  browserTest("a wrong key: an error message, still on the sign-in page", async () => {
    await withPage(async ({ page }) => {
      await signInWith(page, `svc_live_${"Z".repeat(32)}`);
      await expect(page.getByRole("alert").innerText()).resolves.toContain("not valid");
      expect(await page.getByLabel("API key").isVisible()).toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  });

  browserTest(
    "a key without the admin scope: read-only, no Keys, Usage or Settings page, no writes offered",
    async () => {
      const admin = await newTenant(stack.baseUrl, stack.adminKey, { scopes: ["*"] });
      const scopes = ["memories:read", "search:read"];
      const { key } = (await admin.api.post("/v1/keys", { name: "reader", scopes })).body.data;
      await admin.api.post("/v1/memories", { content: "seen, not changed" });
      await withPage(async ({ page }) => {
        await signInWith(page, key);
        await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
        expect(await navLinks(page)).toEqual(ALL_PAGES.filter((p) => !["Keys", "Usage", "Settings"].includes(p)));
        await expect(page.getByText("read-only", { exact: true }).isVisible()).resolves.toBe(true);
        await page.getByRole("button", { name: "seen, not changed" }).click();
        const detail = page.getByTestId("memory-detail");
        await detail.getByText("Metadata").waitFor();
        for (const name of ["New memory", "Add reply", "Edit", "Delete", "Attach"])
          expect(await page.getByRole("button", { name, exact: true }).count()).toBe(0);
        await page.getByRole("link", { name: "Tags" }).click();
        await page.getByText("0 tags.").waitFor();
        expect(await page.getByRole("button", { name: "Create tag" }).count()).toBe(0);
        // With no entity yet, the page says how entities are made, without offering its own form.
        await page.getByRole("link", { name: "Entities" }).click();
        const none = page.getByRole("region", { name: "No entities yet" });
        await none.getByText("link_entity", { exact: true }).waitFor();
        expect(await none.getByText(/New entity form/).count()).toBe(0);
        expect(await page.getByRole("button", { name: "Create entity" }).count()).toBe(0);
        await page.goto(`${stack.baseUrl}/dashboard/keys`);
        await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("Not available");
        await page.goto(`${stack.baseUrl}/dashboard/usage`);
        await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("Not available");
        await page.goto(`${stack.baseUrl}/dashboard/settings`);
        await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("Not available");
      });
    },
  );

  browserTest("sign-out ends the session on the server: the old cookie is then refused", async () => {
    await withPage(async ({ page, context }) => {
      await signInWith(page, stack.adminKey);
      await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
      const cookie = (await context.cookies()).find((c) => c.name === "dashboard_session")!;
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByLabel("API key").waitFor();
      expect(await context.cookies()).toEqual([]);
      const headers = { cookie: `${cookie.name}=${cookie.value}` };
      expect((await fetch(`${stack.baseUrl}/dashboard/api/session`, { headers })).status).toBe(401);
      const gql = await fetch(`${stack.baseUrl}/graphql?query=${encodeURIComponent("{ __typename }")}`, { headers });
      expect(gql.status).toBe(401);
    });
  });
});
