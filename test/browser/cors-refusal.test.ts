import { afterAll, beforeAll, expect, test } from "bun:test";
import { newTenant } from "../api";
import { testStack } from "../harness";
import type { Stack } from "../../scripts/stack/launch";
import { browserPerFile } from "./browser";

/**
 * A developer's first mistake, as Chromium meets it: a page on its own origin (a server on another port, known to
 * no tenant or token) sends a secret key. The page must read the gateway's 403 and its advice, not a bare
 * `TypeError: Failed to fetch`: the preflight lets the request go, and the refusal carries CORS headers.
 */
let stack: Stack;
let server: ReturnType<typeof Bun.serve>;
const browser = browserPerFile();

beforeAll(async () => {
  stack = await testStack();
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response("<!doctype html><title>app</title>", { headers: { "Content-Type": "text/html" } }),
  });
}, 60_000);

afterAll(() => server?.stop(true));

test("a page on another origin sending a secret key reads the 403 and its message", async () => {
  const { key } = await newTenant(stack.baseUrl, stack.adminKey);
  const context = await browser().newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${server.port}/`);
    const seen = await page.evaluate(
      async ({ api, key }) => {
        try {
          for (const [method, body] of [
            ["GET", undefined],
            ["POST", JSON.stringify({ content: "x" })],
          ] as const) {
            const res = await fetch(`${api}/v1/memories`, {
              method,
              body,
              headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
            });
            const envelope = await res.json();
            if (method === "POST")
              return {
                status: res.status,
                code: envelope.error.code,
                constraint: envelope.error.details.constraint,
                message: envelope.error.message,
                requestId: res.headers.get("X-Request-Id") === envelope.meta.request_id,
              };
          }
        } catch (err) {
          return { thrown: String(err) };
        }
      },
      { api: stack.baseUrl, key },
    );
    expect(seen).toEqual({
      status: 403,
      code: "FORBIDDEN",
      constraint: "token_required",
      message: expect.stringContaining("A secret API key must never reach browser code"),
      requestId: true,
    });
  } finally {
    await context.close();
  }
}, 60_000);
