import { afterAll, describe, expect, test } from "bun:test";
import { createSender, RESPONSE_BODY_LIMIT } from "./sender";

/** The sender against real HTTP servers on loopback (allow-listed as 127.0.0.1, as the tests' stack does). */
const seen: { path: string; headers: Headers; body: string }[] = [];
let slowResponses = 0;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const path = new URL(req.url).pathname;
    seen.push({ path, headers: req.headers, body: await req.text() });
    if (path === "/ok") return new Response("thanks");
    if (path === "/fail") return new Response("nope", { status: 503 });
    if (path === "/redirect") return Response.redirect("http://127.0.0.1:1/elsewhere", 302);
    if (path === "/huge")
      return new Response(
        new ReadableStream({
          pull(c) {
            c.enqueue(new Uint8Array(16 * 1024)); // never ends: only the limit stops the read
          },
        }),
      );
    if (path === "/slow") {
      slowResponses++;
      await Bun.sleep(2000);
    }
    return new Response("ok");
  },
});
afterAll(() => server.stop(true));
const base = `http://127.0.0.1:${server.port}`;
const allowed = new Set(["127.0.0.1"]);
const send = createSender({ allowed, timeoutMs: 500 });

describe("sender", () => {
  test("posts the body with the signed headers; a 2xx is a success", async () => {
    const r = await send(`${base}/ok`, { "webhook-id": "evt_1" }, '{"a":1}');
    expect(r).toMatchObject({ ok: true, status_code: 200, error: null });
    const got = seen.find((s) => s.path === "/ok")!;
    expect([got.body, got.headers.get("webhook-id"), got.headers.get("content-type")]).toEqual([
      '{"a":1}',
      "evt_1",
      "application/json",
    ]);
  });

  test("a non-2xx answer fails with its status; a redirect is not followed", async () => {
    expect(await send(`${base}/fail`, {}, "{}")).toMatchObject({ ok: false, status_code: 503, error: "HTTP 503" });
    const r = await send(`${base}/redirect`, {}, "{}");
    expect(r).toMatchObject({ ok: false, status_code: 302, error: "redirect (302) not followed" });
    expect(seen.some((s) => s.path === "/elsewhere")).toBe(false);
  });

  test("an endless response body is read to 64 KiB only", async () => {
    expect(RESPONSE_BODY_LIMIT).toBe(65_536);
    expect(await send(`${base}/huge`, {}, "{}")).toMatchObject({ ok: true, status_code: 200 });
  });

  test("an attempt ends at its timeout; a closed port is a connection error", async () => {
    const r = await send(`${base}/slow`, {}, "{}");
    expect(r).toMatchObject({ ok: false, status_code: null, error: "timeout after 500 ms" });
    expect(r.latency_ms).toBeLessThan(1500);
    expect(slowResponses).toBe(1);
    const closed = await send("http://127.0.0.1:1/", {}, "{}");
    expect(closed.ok).toBe(false);
    expect(closed.error).toStartWith("connection: ");
  });

  test("without the allow-list: loopback by name, metadata, private addresses and http are refused", async () => {
    const strict = createSender({ allowed: new Set(), timeoutMs: 500 });
    const before = seen.length;
    const port = server.port;
    for (const [url, error] of [
      [`https://localhost:${port}/ok`, "refused: localhost resolves to a private or reserved address (127.0.0.1)"],
      ["https://169.254.169.254/latest/meta-data", "refused: 169.254.169.254 resolves to a private or reserved"],
      ["https://10.0.0.1/", "refused: 10.0.0.1 resolves to a private or reserved address"],
      [`http://127.0.0.1:${port}/ok`, "refused: http is only for allow-listed hosts"],
    ] as const) {
      const r = await strict(url, {}, "{}");
      expect([url, r.ok, r.status_code, r.error?.slice(0, error.length)]).toEqual([url, false, null, error]);
    }
    expect(seen.length).toBe(before);
  });

  test("a name is refused when any of its addresses is private: DNS cannot point a public name inward", async () => {
    const lookup = async (host: string) => (host === "rebind.example" ? ["93.184.216.34", "127.0.0.1"] : []);
    const strict = createSender({ allowed: new Set(), timeoutMs: 500, lookup });
    const r = await strict("https://rebind.example/hook", {}, "{}");
    expect(r.error).toBe("refused: rebind.example resolves to a private or reserved address (127.0.0.1)");
    expect((await strict("https://nothing.example/", {}, "{}")).error).toStartWith("refused: nothing.example");
  });

  test("a name resolving to IPv6 carrying a private IPv4 (6to4, Teredo, NAT64, mapped) is refused", async () => {
    const carriers = ["2002:7f00:1::1", "2001:0:4136:e378:8000:63bf:80ff:fffe", "64:ff9b::a9fe:a9fe", "::ffff:7f00:1"];
    for (const address of carriers) {
      const strict = createSender({ allowed: new Set(), timeoutMs: 500, lookup: async () => [address] });
      const r = await strict("https://inward.example/hook", {}, "{}");
      expect([address, r.ok, r.error]).toEqual([
        address,
        false,
        `refused: inward.example resolves to a private or reserved address (${address})`,
      ]);
    }
  });

  test("the allow-list holds as written at delivery too: another spelling of 127.0.0.1 is refused", async () => {
    const before = seen.length;
    for (const host of ["127.1", "2130706433", "0x7f000001"]) {
      const r = await send(`http://${host}:${server.port}/ok`, {}, "{}");
      expect([host, r.ok, r.error]).toEqual([host, false, "refused: http is only for allow-listed hosts"]);
    }
    expect(seen.length).toBe(before);
    expect((await send(`http://127.0.0.1:${server.port}/ok`, {}, "{}")).ok).toBe(true);
  });
});
