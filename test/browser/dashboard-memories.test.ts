import { describe, expect } from "bun:test";
import type { Page } from "playwright-core";
import { browserPerFile, screenshot } from "./browser";
import { adminOfNewTenant, browserTest, expectAccessible, openPage, signedIn, withPage } from "./dashboard-session";

const browser = browserPerFile();

/** Creates a memory with the form (a reply when the detail's "Add reply" opened it); waits for its detail. */
async function createWithForm(page: Page, content: string): Promise<void> {
  await page.getByLabel("Content", { exact: true }).fill(content);
  await page.getByRole("button", { name: "Create memory" }).click();
  await page.getByTestId("memory-detail").getByText(content, { exact: true }).waitFor();
}

const tree = (page: Page) => page.getByRole("list", { name: "Memories" });

describe("dashboard: memories", () => {
  browserTest(
    "a thread created in the page shows as a tree; detail, tags, filter, and a delete that states its consequence",
    async () => {
      const admin = await adminOfNewTenant();
      const tag = (await admin.api.post("/v1/tags", { name: "trip", color: "#1e6b2e" })).body.data;
      await withPage(browser, async ({ page }) => {
        await signedIn(page, admin.key);
        await openPage(page, "Memories");
        await page.getByRole("button", { name: "New memory" }).click();
        await createWithForm(page, "Planning a trip to <b>Lisbon</b>");
        await page.getByRole("button", { name: "Add reply" }).click();
        await createWithForm(page, "Book the flights");
        await page.getByRole("button", { name: "Add reply" }).click();
        await createWithForm(page, "Window seats, please");

        // The tree: the root, its reply, and the reply's reply, each level expanded by the keyboard.
        const root = tree(page).getByRole("listitem").filter({ hasText: "Planning a trip" }).first();
        await root.getByRole("button", { name: "Show 1 reply" }).focus();
        await page.keyboard.press("Enter");
        await root.getByRole("button", { name: "Book the flights" }).waitFor();
        await root.getByRole("button", { name: "Show 1 reply" }).click();
        await root.getByRole("button", { name: "Window seats, please" }).waitFor();
        await expect(root.getByRole("button", { name: "Hide 1 reply" }).count()).resolves.toBe(2);

        // Edit a reply's content in its detail.
        await root.getByRole("button", { name: "Window seats, please" }).click();
        await page.getByTestId("memory-detail").getByRole("button", { name: "Edit" }).click();
        await page.getByLabel("Content", { exact: true }).fill("Aisle seats, please");
        await page.getByRole("button", { name: "Save", exact: true }).click();
        await page.getByTestId("memory-detail").getByText("Aisle seats, please", { exact: true }).waitFor();
        await root.getByRole("button", { name: "Aisle seats, please" }).waitFor();

        // Content is text: the markup shows as typed, and no element came from it.
        await root.getByRole("button", { name: /Planning a trip/ }).click();
        const detail = page.getByTestId("memory-detail");
        await detail.getByText("Planning a trip to <b>Lisbon</b>", { exact: true }).waitFor();
        await expect(detail.locator("b").count()).resolves.toBe(0);

        // Attach a tag, then filter the list by it.
        await detail.getByLabel("Attach tag").selectOption(tag.id);
        await detail.getByRole("button", { name: "Attach" }).click();
        const chips = detail.getByRole("list", { name: "Tags of this memory" });
        await chips.getByText("#trip").waitFor();
        await chips.getByRole("button", { name: "Detach tag trip" }).click();
        await chips.getByText("none").waitFor();
        await detail.getByLabel("Attach tag").selectOption(tag.id);
        await detail.getByRole("button", { name: "Attach" }).click();
        await chips.getByText("#trip").waitFor();
        await page.getByLabel("Tag", { exact: true }).selectOption(tag.id);
        await page.getByTestId("memory-count").getByText("1 thread matches.").waitFor();
        await screenshot(page, "dashboard-memories");
        await expectAccessible(page);

        // Delete: the dialog states what each choice does before anything goes.
        await detail.getByRole("button", { name: "Delete" }).click();
        const dialog = page.getByRole("dialog", { name: "Delete this memory?" });
        const consequence = dialog.getByTestId("delete-consequence");
        await consequence.getByText(/its 1 direct reply becomes a root/).waitFor();
        await dialog.getByLabel(/cascade/).check();
        await consequence.getByText(/whole subtree/).waitFor();
        await expectAccessible(page);
        await dialog.getByLabel(/cascade/).uncheck();
        await dialog.getByRole("button", { name: "Delete" }).click();
        await page.getByTestId("memory-detail").waitFor({ state: "detached" });
        await page.getByLabel("Tag", { exact: true }).selectOption("");
        // Without cascade the reply is a root now, with its own reply below it.
        await tree(page)
          .getByText(/Planning a trip/)
          .waitFor({ state: "detached" });
        const reply = tree(page).getByRole("listitem").filter({ hasText: "Book the flights" }).first();
        await reply.getByRole("button", { name: "Show 1 reply" }).waitFor();
        await page.getByTestId("memory-count").getByText("1 thread matches.").waitFor();
        // The tag went with the deleted memory.
        const left = await admin.api.get(`/v1/tags/${tag.id}`);
        expect(left.body.data.memory_count).toBe(0);
      });
    },
  );

  browserTest("the list pages by 20 and filters by tier and content type", async () => {
    const admin = await adminOfNewTenant();
    for (let i = 0; i < 23; i++) await admin.api.post("/v1/memories", { content: `note ${i}`, tier: "short" });
    await admin.api.post("/v1/memories", { content: "a fact kept long", tier: "long", content_type: "fact" });
    await withPage(browser, async ({ page }) => {
      await signedIn(page, admin.key);
      await openPage(page, "Memories");
      const pager = page.getByRole("navigation", { name: "Pages of memories" });
      await pager.getByText("1–20 of 24").waitFor();
      await expect(tree(page).getByRole("listitem").count()).resolves.toBe(20);
      await pager.getByRole("button", { name: "Next" }).click();
      await pager.getByText("21–24 of 24").waitFor();
      await expect(tree(page).getByRole("listitem").count()).resolves.toBe(4);
      await page.getByLabel("Tier", { exact: true }).selectOption("LONG");
      await pager.getByText("1–1 of 1").waitFor();
      await tree(page).getByText("a fact kept long").waitFor();
      await page.getByLabel("Content type", { exact: true }).selectOption("TEXT");
      await page.getByTestId("memory-count").getByText("0 threads match.").waitFor();
    });
  });
});
