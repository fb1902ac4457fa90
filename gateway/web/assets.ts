import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One built file, served at /dashboard/assets/<name>; its name holds a hash of its content. */
export interface Asset {
  name: string;
  type: string;
  body: Uint8Array<ArrayBuffer>;
  /** The same bytes gzipped, when that is smaller by enough to matter. */
  gzip: Uint8Array<ArrayBuffer> | null;
}

/** What one HTML page loads, in order: asset names. */
export interface PageAssets {
  scripts: string[];
  styles: string[];
}

/** Everything the browser pages load: the files, and which of them each page needs. */
export interface WebAssets {
  files: Map<string, Asset>;
  pages: { dashboard: PageAssets; graphiql: PageAssets; docs: PageAssets };
}

export const ASSETS_PATH = "/dashboard/assets";

const MANIFEST = "manifest.json";

/** Text that compresses well and is worth it: browsers all accept gzip. */
export function withGzip(name: string, type: string, body: Uint8Array<ArrayBuffer>): Asset {
  const gzip = body.byteLength >= 1024 ? Bun.gzipSync(body, { level: 6 }) : null;
  return { name, type, body, gzip: gzip && gzip.byteLength < body.byteLength * 0.9 ? gzip : null };
}

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  woff2: "font/woff2",
  svg: "image/svg+xml",
  png: "image/png",
};

export const typeOf = (name: string) => TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";

/** Writes built assets to a directory (the container image's build stage), with the page list as manifest.json. */
export function writeWebAssets(dir: string, assets: WebAssets): void {
  mkdirSync(dir, { recursive: true });
  for (const asset of assets.files.values()) writeFileSync(join(dir, asset.name), asset.body);
  writeFileSync(join(dir, MANIFEST), JSON.stringify({ pages: assets.pages }, null, 2));
}

/** Reads what writeWebAssets wrote; a page naming a missing file is an error here, not a 404 later. */
export function readWebAssets(dir: string): WebAssets {
  const { pages } = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Pick<WebAssets, "pages">;
  const files = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    if (name !== MANIFEST) files.set(name, withGzip(name, typeOf(name), new Uint8Array(readFileSync(join(dir, name)))));
  }
  for (const page of Object.values(pages))
    for (const name of [...page.scripts, ...page.styles])
      if (!files.has(name)) throw new Error(`${dir}/${MANIFEST} names ${name}, which is not there`);
  return { files, pages };
}
