import { describe, expect } from "bun:test";
import { browserPerFile, screenshot } from "./browser";
import { adminOfNewTenant, browserTest, expectAccessible, openPage, signedIn, withPage } from "./dashboard-session";

const browser = browserPerFile();

describe("dashboard: search playground", () => {
  browserTest(
    "a search shows each hit's score and its parts as bars, and the assembled context with its token count",
    async () => {
      const admin = await adminOfNewTenant();
      const root = (await admin.api.post("/v1/memories", { content: "Trip planning with Ana" })).body.data;
      for (const content of ["Ana prefers window seats on long flights", "The hotel in Porto has a rooftop pool"])
        await admin.api.post("/v1/memories", { content, parent_memory_id: root.id });
      await withPage(browser, async ({ page }) => {
        await signedIn(page, admin.key);
        await openPage(page, "Search");
        await page.getByLabel("Query").fill("window seats");
        await page.getByText("Filters and context options").click();
        await page.getByLabel("Limit (1–100)").fill("5");
        await page.getByLabel("Context token budget").fill("500");
        await page.getByRole("button", { name: "Search", exact: true }).click();
        await page
          .getByTestId("search-status")
          .getByText(/^[1-9]\d* results?\.$/)
          .waitFor();

        const hits = page.getByRole("list", { name: "Results" }).getByRole("listitem");
        const best = hits.first();
        await best.getByText("Ana prefers window seats on long flights").waitFor();
        for (const part of ["score", "semantic", "lexical", "thread"]) {
          const label = await best.getByTestId(`bar-${part}`).getAttribute("aria-label");
          expect(label).toMatch(new RegExp(`^${part} (\\d\\.\\d{3}|—)$`));
        }
        const score = Number((await best.getByTestId("bar-score").getAttribute("aria-label"))!.split(" ")[1]);
        expect(score).toBeGreaterThan(0);
        const width = await best
          .getByTestId("bar-score")
          .locator(".bar-fill")
          .evaluate((e) => (e as any).style.width);
        expect(Number.parseFloat(width)).toBeCloseTo(score * 100, 0);

        const summary = page.getByTestId("context-summary");
        await summary.getByText(/^\d+ tokens · (1 memory|\d+ memories) · (truncated|complete)$/).waitFor();
        expect(Number((await summary.innerText()).split(" ")[0])).toBeGreaterThan(0);
        await expect(page.getByLabel("Assembled context").innerText()).resolves.toContain("window seats");
        await screenshot(page, "dashboard-search");
        await expectAccessible(page);
      });
    },
  );
});
