import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readWebAssets, typeOf, type WebAssets, withGzip, writeWebAssets } from "./assets";

const dir = mkdtempSync(join(tmpdir(), "web-assets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (s: string) => new Uint8Array(Buffer.from(s));
const page = { scripts: ["app-1.js"], styles: ["app-2.css"] };

function sample(): WebAssets {
  const files = new Map([
    ["app-1.js", withGzip("app-1.js", typeOf("app-1.js"), text("console.log(1);".repeat(200)))],
    ["app-2.css", withGzip("app-2.css", typeOf("app-2.css"), text("a{}"))],
  ]);
  return { files, pages: { dashboard: page, graphiql: page, docs: page } };
}

describe("web assets", () => {
  test("written to a directory and read back: the same files, types and pages", () => {
    writeWebAssets(join(dir, "ok"), sample());
    const read = readWebAssets(join(dir, "ok"));
    expect(read.pages).toEqual(sample().pages);
    expect([...read.files.keys()].sort()).toEqual(["app-1.js", "app-2.css"]);
    expect(read.files.get("app-1.js")!.type).toBe("text/javascript; charset=utf-8");
    expect(Buffer.from(read.files.get("app-2.css")!.body).toString()).toBe("a{}");
  });

  test("a manifest naming a missing file fails at start, not as a 404 later", () => {
    writeWebAssets(join(dir, "broken"), sample());
    rmSync(join(dir, "broken", "app-2.css"));
    expect(() => readWebAssets(join(dir, "broken"))).toThrow("names app-2.css, which is not there");
  });

  test("gzip is kept only when it saves at least a tenth", () => {
    const big = withGzip("a.js", typeOf("a.js"), text("x".repeat(4096)));
    expect(big.gzip!.byteLength).toBeLessThan(400);
    expect(Buffer.from(Bun.gunzipSync(big.gzip!)).toString()).toBe("x".repeat(4096));
    expect(withGzip("b.js", typeOf("b.js"), text("x")).gzip).toBeNull();
    expect(withGzip("c.bin", typeOf("c.bin"), crypto.getRandomValues(new Uint8Array(4096))).gzip).toBeNull();
  });

  test("types by extension; anything else is served as bytes", () => {
    expect(typeOf("x.css")).toBe("text/css; charset=utf-8");
    expect(typeOf("x.woff2")).toBe("font/woff2");
    expect(typeOf("x")).toBe("application/octet-stream");
  });
});
