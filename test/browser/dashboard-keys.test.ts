import { beforeAll, describe, expect } from "bun:test";
import type { Page } from "playwright-core";
import { apiClient } from "../api";
import { testStack } from "../harness";
import { browserPerFile, screenshot } from "./browser";
import {
  adminOfNewTenant,
  browserTest,
  eventually,
  expectAccessible,
  openPage,
  signedIn,
  withPage,
} from "./dashboard-session";

let baseUrl = "";
const browser = browserPerFile();

beforeAll(async () => {
  baseUrl = (await testStack()).baseUrl;
});

/** The status of GET /v1/memories (memories:read) and POST /v1/memories (memories:write) with a key. */
async function statuses(key: string): Promise<[number, number]> {
  const api = apiClient(baseUrl, key);
  const read = await api.get("/v1/memories?limit=1");
  const write = await api.post("/v1/memories", { content: "written by a dashboard-made key" });
  return [read.status, write.status];
}

/** The secret on the page: it is shown once, in the read-only field next to the copy button. */
async function copySecret(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Copy" }).click();
  await page.getByText("Copied to the clipboard.").waitFor();
  const copied = await page.evaluate(() => (globalThis as { navigator?: any }).navigator!.clipboard.readText());
  expect(copied).toBe(await page.getByLabel("Secret", { exact: true }).inputValue());
  expect(copied).toMatch(/^svc_live_/);
  return copied as string;
}

// 401s and 403s the test provokes with the API are not the page's; the page itself gets none.
describe("dashboard: keys", () => {
  browserTest("create a key, copy its secret and use it; narrow its scopes; rotate it; revoke it", async () => {
    const admin = await adminOfNewTenant();
    await withPage(browser, async ({ page, context }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
      await signedIn(page, admin.key);
      await openPage(page, "Keys");
      await page.getByRole("button", { name: "New key" }).click();
      await page.getByLabel("Name").fill("browser key");
      await expectAccessible(page);
      await page.getByRole("button", { name: "Create key" }).click();

      // Create: the secret once, with a warning and a copy button; the API takes it.
      await page.getByText("it is shown only this once").waitFor();
      await screenshot(page, "dashboard-keys-secret");
      const secret = await copySecret(page);
      expect(await statuses(secret)).toEqual([200, 200]);
      await page.getByRole("button", { name: "I have stored it" }).click();
      await expect(page.getByLabel("Secret", { exact: true }).count()).resolves.toBe(0);
      const row = page.locator("tr", { hasText: "browser key" });
      await row.getByText("memories:read, memories:write, search:read").waitFor();

      // Edit: without memories:write, the API refuses a write (every gateway within 1 s) and still reads.
      await page.getByRole("button", { name: "Edit browser key" }).click();
      await page.getByRole("checkbox", { name: "memories:write" }).uncheck();
      await page.getByLabel(/Rate limit/).fill("120");
      await page.getByRole("button", { name: "Save changes" }).click();
      await row.getByText("memories:read, search:read").waitFor();
      await row.getByRole("cell", { name: "120", exact: true }).waitFor();
      await eventually(async () => (await statuses(secret))[1] === 403, "a write with the narrowed key is 403");
      expect((await statuses(secret))[0]).toBe(200);

      // Rotate: a new secret for the same key; the old one is refused at once (no grace).
      await page.getByRole("button", { name: "Rotate browser key" }).click();
      const dialog = page.getByRole("dialog", { name: "Rotate browser key?" });
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Rotate" }).click();
      const rotated = await copySecret(page);
      expect(rotated).not.toBe(secret);
      await eventually(async () => (await statuses(secret))[0] === 401, "the old secret is 401");
      expect((await statuses(rotated))[0]).toBe(200);
      await page.getByRole("button", { name: "I have stored it" }).click();

      // Revoke, after a confirmation that says what it does; Escape backs out of it, by the keyboard alone.
      const revoke = page.getByRole("button", { name: "Revoke browser key" });
      await revoke.focus();
      await page.keyboard.press("Enter");
      await page.getByRole("dialog", { name: "Revoke browser key?" }).waitFor();
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await expect(revoke.evaluate((e) => e === (e.ownerDocument as any).activeElement)).resolves.toBe(true);
      await revoke.click();
      const confirm = page.getByRole("dialog", { name: "Revoke browser key?" });
      await confirm.getByText("This cannot be undone").waitFor();
      await confirm.getByRole("button", { name: "Revoke" }).click();
      await row.getByText("revoked", { exact: true }).waitFor();
      await eventually(async () => (await statuses(rotated))[0] === 401, "the revoked key is 401");
      await expect(page.getByRole("button", { name: "Edit browser key" }).count()).resolves.toBe(0);
      await screenshot(page, "dashboard-keys");
      await expectAccessible(page);
    });
  });
});
