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

describe("dashboard: settings", () => {
  browserTest("the tenant's CORS allow-list: shown, changed and saved as PATCH /v1/tenant would", async () => {
    const admin = await adminOfNewTenant();
    await admin.api.patch("/v1/tenant", { cors: { allowed_origins: ["https://old.example"] } });
    await withPage(
      browser,
      async ({ page }) => {
        await signedIn(page, admin.key);
        await openPage(page, "Settings");
        const origins = page.getByLabel("Allowed origins");
        await eventually(async () => (await origins.inputValue()) === "https://old.example", "the stored list shows");
        await origins.fill("https://app.example\n\n  https://admin.example:8443 ");
        await page.getByRole("button", { name: "Save" }).click();
        await page.getByTestId("cors-saved").waitFor();
        await expect(origins.inputValue()).resolves.toBe("https://app.example\nhttps://admin.example:8443");
        const stored = (await admin.api.get("/v1/tenant")).body.data.cors.allowed_origins;
        expect(stored).toEqual(["https://app.example", "https://admin.example:8443"]);
        await origins.fill("app.example");
        await page.getByRole("button", { name: "Save" }).click();
        await page.getByRole("alert").waitFor();
        await expect(heading(page).innerText()).resolves.toBe("Settings");
        await screenshot(page, "dashboard-settings");
        await expectAccessible(page);
      },
      /status of 40[01]/,
    );
  });
});
