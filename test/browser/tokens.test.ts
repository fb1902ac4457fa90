import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type NatsConnection } from "nats";
import type { Page } from "playwright-core";
import { apiClient, newTenant } from "../api";
import { testStack } from "../harness";
import type { Stack } from "../../scripts/stack/launch";
import { createBus } from "../../services/kit/bus";
import { tokenSecrets } from "../../services/contract/tokens";
import { readToken, signToken } from "../../services/contract/token-format";
import { browserPerFile, watchedPage, type Watched } from "./browser";
import { checkIsolation, seedIsolation, type Send } from "../tokens/isolation";

/**
 * Browser tokens in Chromium: a page served from a second origin (its own server on another port) calls the
 * API with graphql-request and a token, as a frontend would. The same page at a third origin (the same server
 * by another host name) is blocked by the browser itself.
 */
let stack: Stack;
let server: ReturnType<typeof Bun.serve>;
let nc: NatsConnection;
/** The page's origin, which tokens allow; and another one, which they do not. */
let appOrigin = "";
let otherOrigin = "";
const browser = browserPerFile();

beforeAll(async () => {
  stack = await testStack();
  nc = await connect({ servers: stack.natsUrl });
  const built = await Bun.build({ entrypoints: [`${import.meta.dir}/token-page/app.ts`], target: "browser" });
  if (!built.success) throw new Error(built.logs.join("\n"));
  const script = await built.outputs[0]!.text();
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) =>
      new URL(req.url).pathname === "/app.js"
        ? new Response(script, { headers: { "Content-Type": "text/javascript" } })
        : new Response('<!doctype html><title>app</title><script type="module" src="/app.js"></script>', {
            headers: { "Content-Type": "text/html" },
          }),
  });
  appOrigin = `http://127.0.0.1:${server.port}`;
  otherOrigin = `http://localhost:${server.port}`;
}, 60_000);

afterAll(async () => {
  server?.stop(true);
  await nc?.close();
});

/** Chromium logs refused and failed requests (4xx, CORS) as console errors; these the tests cause on purpose. */
const EXPECTED = /CORS|status of 4\d\d|Failed to fetch|ERR_FAILED/;

async function onPage(origin: string, run: (page: Page) => Promise<void>) {
  const w: Watched = await watchedPage(browser());
  try {
    await w.page.goto(`${origin}/`);
    await w.page.waitForFunction(() => "tokenPage" in globalThis);
    await run(w.page);
    expect(w.offsite).toEqual([]);
    expect(w.errors.filter((e) => !EXPECTED.test(e))).toEqual([]);
  } finally {
    await w.context.close();
  }
}

type PageApi = {
  request(api: string, token: string, query: string, variables?: unknown): Promise<any>;
  rest(api: string, token: string, path: string): Promise<any>;
  subscribe(api: string, token: string): Promise<number>;
  send(api: string, token: string, method: string, path: string, body?: unknown): Promise<any>;
  events: string[];
};
const inPage = <T>(page: Page, fn: (p: PageApi, arg: any) => Promise<T> | T, arg: unknown) =>
  page.evaluate(([source, a]) => new Function("p", "a", `return (${source})(p, a)`)((globalThis as any).tokenPage, a), [
    fn.toString(),
    arg,
  ] as const) as Promise<T>;

async function mintFor(key: string, body: Record<string, unknown>) {
  const res = await apiClient(stack.baseUrl, key).post("/v1/tokens", body);
  expect(res.status).toBe(200);
  return res.body.data.token as string;
}

const MEMORIES = "{ memories { total items { content metadata } } }";
const CREATE = `mutation($c: String!) { createMemory(input: { content: $c }) { content metadata } }`;

describe("a page on another origin", () => {
  test("queries and mutates within its restriction; the subscription delivers only its user's events", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    await t.api.post("/v1/memories", { content: "u1 note", metadata: { user_id: "u_1" } });
    await t.api.post("/v1/memories", { content: "u2 note", metadata: { user_id: "u_2" } });
    const token = await mintFor(t.key, {
      scopes: ["memories:read", "memories:write"],
      restrict: { metadata: { user_id: "u_1" } },
      origins: [appOrigin],
    });
    await onPage(appOrigin, async (page) => {
      const api = stack.baseUrl;
      const read = await inPage(page, (p, a) => p.request(a.api, a.token, a.q), { api, token, q: MEMORIES });
      expect(read.status).toBe(200);
      expect(read.data.memories.items).toEqual([{ content: "u1 note", metadata: { user_id: "u_1" } }]);
      const made = await inPage(page, (p, a) => p.request(a.api, a.token, a.q, { c: "from the page" }), {
        api,
        token,
        q: CREATE,
      });
      expect(made.data.createMemory).toEqual({ content: "from the page", metadata: { user_id: "u_1" } });
      expect(await inPage(page, (p, a) => p.subscribe(a.api, a.token), { api, token })).toBe(200);
      await Bun.sleep(200); // the stream is listening
      await t.api.post("/v1/memories", { content: "u2 live", metadata: { user_id: "u_2" } });
      await t.api.post("/v1/memories", { content: "u1 live", metadata: { user_id: "u_1" } });
      await page.waitForFunction(() => (globalThis as any).tokenPage.events.includes("u1 live"), null, {
        timeout: 5000,
      });
      await Bun.sleep(300); // time for a u_2 event to arrive, were it sent
      expect(await inPage(page, (p) => [...p.events], null)).toEqual(["u1 live"]);
    });
  }, 60_000);

  test("another origin is blocked by the browser", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mintFor(t.key, { origins: [appOrigin] });
    await onPage(otherOrigin, async (page) => {
      const out = await inPage(page, (p, a) => p.request(a.api, a.token, a.q), {
        api: stack.baseUrl,
        token,
        q: MEMORIES,
      });
      expect(out.blocked).toBe(true);
      expect(
        (await inPage(page, (p, a) => p.rest(a.api, a.token, "/v1/memories"), { api: stack.baseUrl, token })).blocked,
      ).toBe(true);
    });
  }, 60_000);

  test("an expired token and a token whose minting key is revoked get a 401 the page can read", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mintFor(t.key, { origins: [appOrigin] });
    const { secrets } = await createBus(nc, { timeoutMs: 5000 }).call(tokenSecrets, {}, { requestId: "test" });
    const secretOf = (id: string) => secrets.find((s) => s.id === id)?.secret;
    const claims = readToken(token, secretOf)!;
    const expired = signToken({ ...claims, exp: Math.floor(Date.now() / 1000) - 1 }, secretOf(claims.sid)!);
    const api = stack.baseUrl;
    await onPage(appOrigin, async (page) => {
      const status = (tok: string) => inPage(page, (p, a) => p.request(a.api, a.tok, a.q), { api, tok, q: MEMORIES });
      expect((await status(token)).status).toBe(200);
      expect((await status(expired)).status).toBe(401);
      expect((await apiClient(api, stack.adminKey).delete(`/v1/keys/${t.keyId}`)).status).toBe(200);
      const deadline = Date.now() + 1000;
      let after = await status(token);
      while (after.status !== 401 && Date.now() < deadline) after = await status(token);
      expect(after.status).toBe(401);
    });
  }, 60_000);

  test("a token's own rate limit is exact under 50 concurrent requests from the page", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const token = await mintFor(t.key, { origins: [appOrigin], rate_limit: 12 });
    await onPage(appOrigin, async (page) => {
      const statuses = await inPage(
        page,
        async (p, a) =>
          (await Promise.all(Array.from({ length: 50 }, () => p.rest(a.api, a.token, "/v1/memories")))).map(
            (o: { status?: number }) => o.status,
          ),
        { api: stack.baseUrl, token },
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(12);
      expect(statuses.filter((s) => s === 429)).toHaveLength(38);
    });
  }, 60_000);

  test("a token for u_1 reaches no memory of u_2 from the page: the isolation property in the browser", async () => {
    const seed = await seedIsolation(stack.baseUrl, stack.adminKey);
    const token = await seed.mint([appOrigin]);
    await onPage(appOrigin, async (page) => {
      const send: Send = async (method, path, body) => {
        const out = await inPage(page, (p, a) => p.send(a.api, a.token, a.method, a.path, a.body), {
          api: stack.baseUrl,
          token,
          method,
          path,
          body,
        });
        // A request the browser blocked would prove nothing.
        if (out.status === 0) throw new Error(`${method} ${path} was blocked: ${out.text}`);
        return out;
      };
      await checkIsolation(seed, send, 15);
    });
  }, 120_000);
});
