import { beforeAll, expect, test } from "bun:test";
import { testStack } from "../harness";
import { browserPerFile } from "./browser";

let baseUrl = "";
const browser = browserPerFile();

beforeAll(async () => {
  baseUrl = (await testStack()).baseUrl;
});

/**
 * A user opening /docs sees the reference and nothing in the console: Scalar logs each mismatch of the document
 * against its schema as a warning ("document validation errors"), so warnings count as much as errors.
 * (docs.test.ts checks that the CSP refuses nothing either: zod's eval probe in Scalar's bundle is answered when
 * the bundle is served, gateway/web/scalar-bundle.ts.)
 */
test("/docs: no console error or warning, no failed request, no error answer", async () => {
  const context = await browser().newContext();
  try {
    const page = await context.newPage();
    const complaints: string[] = [];
    page.on("console", (msg) => {
      const text = msg.text();
      if (msg.type() === "error" || msg.type() === "warning") complaints.push(`${msg.type()}: ${text}`);
    });
    page.on("pageerror", (err) => complaints.push(`uncaught: ${err.message}`));
    page.on("requestfailed", (r) => complaints.push(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
    page.on("response", (r) => {
      if (r.status() >= 400) complaints.push(`${r.status()}: ${r.request().method()} ${r.url()}`);
    });
    await page.goto(`${baseUrl}/docs`);
    await page.getByText("Create an API key", { exact: false }).first().waitFor({ timeout: 30_000 });
    // Scalar validates the document as it loads it, before it lists the operations; then nothing is pending.
    await page.waitForLoadState("networkidle");
    expect(complaints).toEqual([]);
  } finally {
    await context.close();
  }
}, 60_000);
