import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll } from "bun:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_BIN, CHROMIUM_MISSING } from "../../scripts/setup/chromium.mjs";

const ROOT = resolve(import.meta.dir, "../..");
export const SCREENSHOTS = resolve(ROOT, "test-output", "screenshots");

/**
 * The flags that let Chromium run headless as root on a machine with no network but loopback: without the
 * background-networking ones it keeps trying Google's hosts.
 */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** Starts Chromium with a new empty profile and a DevTools port; resolves with its WebSocket address. */
async function startChromium(profile: string): Promise<{ proc: ReturnType<typeof Bun.spawn>; ws: string }> {
  const args = [...FLAGS, `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank"];
  const proc = Bun.spawn([CHROMIUM_BIN, ...args], { stdout: "ignore", stderr: "pipe", stdin: "ignore" });
  const reader = proc.stderr.getReader();
  let seen = "";
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
    const ws = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
    if (ws) {
      reader.releaseLock();
      void proc.stderr.pipeTo(new WritableStream()); // keep draining it
      return { proc, ws };
    }
  }
  proc.kill();
  throw new Error(`Chromium did not start:\n${seen.slice(-2000)}`);
}

/**
 * One Chromium per test file: started before its tests, stopped after them. Playwright drives it over the DevTools
 * WebSocket (connectOverCDP) rather than launching it itself: the pipe of `chromium.launch()` now and then loses a
 * message under Bun (seen in half of the runs: a request stalled 30 s, or "Cannot find parent object request@…"),
 * the WebSocket in none.
 */
export function browserPerFile(): () => Browser {
  let browser: Browser | null = null;
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  const profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  beforeAll(async () => {
    if (!existsSync(CHROMIUM_BIN)) throw new Error(CHROMIUM_MISSING);
    const started = await startChromium(profile);
    proc = started.proc;
    browser = await chromium.connectOverCDP(started.ws);
  }, 60_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    proc?.kill();
    await proc?.exited;
    rmSync(profile, { recursive: true, force: true });
  });
  return () => {
    if (!browser) throw new Error("the browser is not running (see beforeAll's error)");
    return browser;
  };
}

/** What a page did that a test may want to deny: requests that left the machine, CSP reports, script errors. */
export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Every request to a host other than loopback, blocked before it left. */
  offsite: string[];
  /** Content-Security-Policy violations the page reported. */
  cspViolations: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Requests sent and not yet answered (what a page stuck waiting waits for). */
  pending: Set<string>;
}

/**
 * A new context and page whose requests to any non-loopback host are aborted and recorded, and whose CSP
 * violations (the `securitypolicyviolation` event and Chromium's console report) and errors are collected.
 */
export async function watchedPage(browser: Browser): Promise<Watched> {
  const context = await browser.newContext();
  const offsite: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (LOOPBACK.test(url.hostname)) return route.continue();
    offsite.push(url.href);
    return route.abort("blockedbyclient");
  });
  // Runs through the DevTools protocol before any page script, so the page's CSP does not apply to it.
  await context.addInitScript(() => {
    const doc = (globalThis as { document?: { addEventListener(t: string, f: (e: never) => void): void } }).document;
    doc?.addEventListener(
      "securitypolicyviolation",
      (e: { violatedDirective: string; blockedURI: string; sourceFile: string }) =>
        console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile})`),
    );
  });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = msg.text();
    if (/CSP violation|Content Security Policy/.test(text)) cspViolations.push(text);
    else errors.push(text);
  });
  page.on("pageerror", (err) => errors.push(`uncaught: ${err.message}`));
  const pending = new Set<string>();
  const key = (r: { method(): string; url(): string }) => `${r.method()} ${r.url()}`;
  page.on("request", (r) => pending.add(key(r)));
  page.on("requestfinished", (r) => pending.delete(key(r)));
  page.on("requestfailed", (r) => pending.delete(key(r)));
  return { context, page, offsite, cspViolations, errors, pending };
}

export interface A11yViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

let axeSource: string | null = null;

/**
 * Runs axe-core in the page and returns its serious and critical violations. Its source goes in through
 * `page.evaluate`, not a script tag, so the page's Content-Security-Policy is the one it was served with.
 */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  axeSource ??= await Bun.file(resolve(ROOT, "node_modules/axe-core/axe.min.js")).text();
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const page = globalThis as {
      document?: unknown;
      axe?: { run(c: unknown, o: object): Promise<{ violations: [] }> };
    };
    return (await page.axe!.run(page.document, { resultTypes: ["violations"] })).violations;
  })) as { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact!, help: v.help, targets: v.nodes.flatMap((n) => n.target) }));
}

/** A full-page screenshot in test-output/screenshots/<name>.png (not committed), to look at after a run. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = resolve(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
