import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { testStack } from "../harness";
import type { Stack } from "../../scripts/stack/launch";

let stack: Stack;
const built = mkdtempSync(join(tmpdir(), "web-built-"));
afterAll(() => rmSync(built, { recursive: true, force: true }));

beforeAll(async () => {
  stack = await testStack();
});

const scriptsOf = async (res: Response) =>
  [...(await res.text()).matchAll(/<script defer src="([^"]+)"><\/script>/g)].map((m) => m[1]!);

describe("the dashboard's page and assets", () => {
  test("every /dashboard path is the app's page; assets and API paths below it are not", async () => {
    for (const path of ["/dashboard", "/dashboard/", "/dashboard/keys", "/dashboard/memories/1/x?y=2"]) {
      const res = await fetch(stack.baseUrl + path);
      expect({ path, status: res.status, type: res.headers.get("content-type") }).toEqual({
        path,
        status: 200,
        type: "text/html; charset=utf-8",
      });
      expect(res.headers.get("cache-control")).toBe("no-cache");
    }
    for (const path of ["/dashboard/assets/nope.js", "/dashboard/api/nope", "/dashboard/api/session/x"]) {
      const res = await fetch(stack.baseUrl + path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect((await res.json()).error.code).toBe("NOT_FOUND");
    }
    const post = await fetch(`${stack.baseUrl}/dashboard/keys`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  test("assets: content-hashed names cached for a year, gzip when asked, nosniff", async () => {
    const [script] = await scriptsOf(await fetch(`${stack.baseUrl}/dashboard`));
    expect(script).toMatch(/^\/dashboard\/assets\/dashboard-[a-z0-9]+\.js$/);
    const plain = await fetch(stack.baseUrl + script, { headers: { "accept-encoding": "identity" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    expect(plain.headers.get("content-encoding")).toBeNull();
    const body = await plain.text();
    const zipped = await fetch(stack.baseUrl + script, {
      headers: { "accept-encoding": "gzip, br" },
      decompress: false,
    });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("Accept-Encoding");
    const raw = new Uint8Array(await zipped.arrayBuffer());
    expect(raw.byteLength).toBeLessThan(body.length);
    expect(Buffer.from(Bun.gunzipSync(raw)).toString()).toBe(body);
  });

  test("/docs/json is the OpenAPI document as JSON", async () => {
    const res = await fetch(`${stack.baseUrl}/docs/json`);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((await res.json()).openapi).toBe("3.1.0");
  });

  test("a gateway given WEB_ASSETS_DIR (the image's prebuilt assets) serves the same pages", async () => {
    const build = Bun.spawn([process.execPath, "gateway/web/build.ts", built], {
      cwd: resolve(import.meta.dir, "../.."),
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await build.exited).toBe(0);
    const gw = await stack.addGateway({ WEB_ASSETS_DIR: built, LOG_LEVEL: "info" });
    try {
      for (const path of ["/dashboard", "/docs"]) {
        const mine = await scriptsOf(await fetch(gw.baseUrl + path));
        expect(mine).toEqual(await scriptsOf(await fetch(stack.baseUrl + path)));
        for (const script of mine) expect((await fetch(gw.baseUrl + script)).status).toBe(200);
      }
      const log = await Bun.file(gw.child.logFile).text();
      expect(log).toContain('"msg":"web assets read"');
    } finally {
      await gw.child.stop();
    }
  }, 90_000);
});
