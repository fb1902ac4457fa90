import { describe, expect } from "bun:test";
import { browserPerFile, screenshot } from "./browser";
import { adminOfNewTenant, browserTest, expectAccessible, openPage, signedIn, withPage } from "./dashboard-session";

const browser = browserPerFile();

describe("dashboard: tags and entities", () => {
  browserTest("tags: create, rename, recolour, delete; counts shown", async () => {
    const admin = await adminOfNewTenant();
    const tagged = (await admin.api.post("/v1/memories", { content: "tagged" })).body.data;
    await withPage(browser, async ({ page }) => {
      await signedIn(page, admin.key);
      await openPage(page, "Tags");
      await page.getByLabel("New tag name").fill("work");
      await page.getByRole("button", { name: "Create tag" }).click();
      const row = page.locator("tr", { hasText: "work" });
      await row.waitFor();
      await page.getByRole("status").getByText("1 tag.", { exact: true }).waitFor();
      const tagId = (await row.getAttribute("data-tag-id"))!;
      await admin.api.post(`/v1/memories/${tagged.id}/tags`, { tag_ids: [tagId] });

      await row.getByRole("button", { name: "Edit work" }).click();
      await page.getByRole("textbox", { name: "Name", exact: true }).fill("office");
      await page.locator(`#color-${tagId}`).fill("#8a5a00");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      const renamed = page.locator(`tr[data-tag-id="${tagId}"]`);
      await renamed.getByText("#8a5a00").waitFor();
      await expect(renamed.locator("td").nth(1).innerText()).resolves.toBe("office");
      await expect(renamed.locator("td").nth(2).innerText()).resolves.toBe("1");
      await screenshot(page, "dashboard-tags");
      await expectAccessible(page);

      await renamed.getByRole("button", { name: "Delete office" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete tag office?" });
      await dialog.getByText("removed from the 1 memory").waitFor();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await renamed.waitFor({ state: "detached" });
      expect((await admin.api.get(`/v1/tags/${tagId}`)).status).toBe(404);
    });
  });

  browserTest("entities: create, rename and retype, delete; counts shown", async () => {
    const admin = await adminOfNewTenant();
    await withPage(browser, async ({ page }) => {
      await signedIn(page, admin.key);
      await openPage(page, "Entities");
      await page.getByLabel("New entity name").fill("Ada");
      await page.getByLabel("Type", { exact: true }).selectOption("PERSON");
      await page.getByRole("button", { name: "Create entity" }).click();
      const row = page.locator("tr", { hasText: "Ada" });
      await row.getByText("person").waitFor();
      await page.getByRole("status").getByText("1 entity.", { exact: true }).waitFor();
      const id = (await row.getAttribute("data-entity-id"))!;

      await row.getByRole("button", { name: "Edit Ada" }).click();
      await page.getByRole("textbox", { name: "Name", exact: true }).fill("Ada Lovelace Institute");
      await page.locator(`#etype-${id}`).selectOption("ORGANIZATION");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      const renamed = page.locator(`tr[data-entity-id="${id}"]`);
      await renamed.getByText("organization").waitFor();
      await expect(renamed.locator("td").first().innerText()).resolves.toBe("Ada Lovelace Institute");
      await screenshot(page, "dashboard-entities");
      await expectAccessible(page);

      await renamed.getByRole("button", { name: "Delete Ada Lovelace Institute" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await renamed.waitFor({ state: "detached" });
      expect((await admin.api.get(`/v1/entities/${id}`)).status).toBe(404);
    });
  });

  browserTest(
    "entities: an empty page says what entities are and how they are made; one entity hides that",
    async () => {
      const admin = await adminOfNewTenant();
      await withPage(browser, async ({ page }) => {
        await signedIn(page, admin.key);
        await openPage(page, "Entities");
        const empty = page.getByRole("region", { name: "No entities yet" });
        await empty.getByText(/An entity is a named thing/).waitFor();
        for (const way of ["POST /v1/entities", "createEntity", "link_entity", "linkEntityMemories"])
          await empty.getByText(way, { exact: true }).first().waitFor();
        await expect(page.getByRole("status").innerText()).resolves.toBe("0 entities.");
        await screenshot(page, "dashboard-entities-empty");
        await expectAccessible(page);

        const memory = (await admin.api.post("/v1/memories", { content: "Met Ana in Porto" })).body.data;
        const ana = { name: "Ana", type: "person", memory_ids: [memory.id] };
        expect((await admin.api.post("/v1/entities", ana)).status).toBe(200);
        await page.reload();
        const row = page.locator("tr", { hasText: "Ana" });
        await row.getByText("person").waitFor();
        await page.getByRole("status").getByText("1 entity.", { exact: true }).waitFor();
        await expect(row.locator("td").nth(3).innerText()).resolves.toBe("1");
        expect(await empty.count()).toBe(0);
      });
    },
  );
});
