import { describe, expect } from "bun:test";
import { browserPerFile, screenshot } from "./browser";
import {
  adminOfNewTenant,
  browserTest,
  eventually,
  expectAccessible,
  heading,
  openPage,
  signedIn,
  withPage,
} from "./dashboard-session";

const browser = browserPerFile();
const today = () => new Date().toISOString().slice(0, 10);

describe("dashboard: usage", () => {
  browserTest("today's requests on the usage chart, by endpoint and by key", async () => {
    const admin = await adminOfNewTenant();
    for (let i = 0; i < 5; i++) await admin.api.get("/v1/memories?limit=1");
    await admin.api.post("/v1/memories", { content: "0123456789" });
    // One refused request: the totals name it in the singular ("1 error").
    expect((await admin.api.get("/v1/memories/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    // The gateway publishes usage in batches: wait until the report counts these requests and the error.
    await eventually(async () => {
      const res = await admin.api.get(`/v1/usage?from=${today()}&to=${today()}`);
      return res.body.data?.totals?.requests >= 5 && res.body.data?.totals?.errors === 1;
    }, "the usage report counts the requests and the error");

    await withPage(browser, async ({ page }) => {
      await signedIn(page, admin.key);
      await openPage(page, "Usage");
      const totals = page.getByTestId("usage-totals");
      await totals.getByText(/Today: \d+ requests\./).waitFor();
      const todays = Number(/Today: (\d+) requests/.exec(await totals.innerText())![1]);
      expect(todays).toBeGreaterThanOrEqual(5);
      await expect(totals.innerText()).resolves.toMatch(/ requests, 1 error, 0 rate-limited\./);
      const storage = "Storage: 1 memory, 12 bytes (content and metadata).";
      await expect(page.getByTestId("usage-storage").innerText()).resolves.toBe(storage);

      // uPlot's legend shows the values of the day under the cursor: today is the right-most point.
      const plot = page.getByTestId("usage-chart").locator(".u-over");
      const box = (await plot.boundingBox())!;
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
      const requests = page.locator(".u-legend .u-series", { hasText: "Requests" }).locator(".u-value");
      expect(Number(await requests.innerText())).toBeGreaterThanOrEqual(5);

      await page.getByRole("table", { name: "By endpoint" }).getByText("GET /v1/memories", { exact: true }).waitFor();
      await page
        .getByRole("table", { name: "By key" })
        .getByText(/^test \(svc_live_/)
        .waitFor();
      await expect(heading(page).innerText()).resolves.toBe("Usage");
      await screenshot(page, "dashboard-usage");
      await expectAccessible(page);
    });
  });
});
