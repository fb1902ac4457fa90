import { describe } from "bun:test";
import { browserPerFile, screenshot } from "./browser";
import { adminOfNewTenant, browserTest, expectAccessible, openPage, signedIn, withPage } from "./dashboard-session";

const browser = browserPerFile();

describe("dashboard: live view", () => {
  browserTest("a memory created and then changed through REST appears in the live view within 2 s", async () => {
    const admin = await adminOfNewTenant();
    await withPage(browser, async ({ page }) => {
      await signedIn(page, admin.key);
      const stream = page.waitForResponse(
        (r) => r.url().endsWith("/graphql") && r.request().postData()?.includes("MemoryEvents") === true,
      );
      await openPage(page, "Live");
      // The stream is open (its headers came) before anything is written.
      await stream;
      const created = await admin.api.post("/v1/memories", { content: "Arrived in Lisbon at 9" });
      const events = page.getByRole("list", { name: "Memory events" });
      const item = events.locator(`[data-memory-id="${created.body.data.id}"]`);
      await item.getByText("Arrived in Lisbon at 9").waitFor({ timeout: 2_000 });
      await item.getByText("created").waitFor({ timeout: 2_000 });
      const status = page.getByTestId("live-status");
      await status.getByText("Listening · 1 event received.", { exact: true }).waitFor();

      await admin.api.patch(`/v1/memories/${created.body.data.id}`, { content: "Arrived in Lisbon at 10" });
      await events.getByText("Arrived in Lisbon at 10").waitFor({ timeout: 2_000 });
      await events.getByText("changed: content").first().waitFor({ timeout: 2_000 });
      await status.getByText("Listening · 2 events received.", { exact: true }).waitFor();
      await screenshot(page, "dashboard-live");
      await expectAccessible(page);
    });
  });
});
