import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { type Asset, type PageAssets, typeOf, type WebAssets, withGzip, writeWebAssets } from "./assets";
import { servedScalarBundle } from "./scalar-bundle";

const ROOT = resolve(import.meta.dir, "../..");

/** The browser code in dashboard/: one bundle per page. */
const ENTRIES = {
  dashboard: "dashboard/src/main.tsx",
  graphiql: "dashboard/graphiql/main.ts",
  docs: "dashboard/docs/main.ts",
} as const;

/** Scalar ships a browser bundle of its own (it defines the global `Scalar` that dashboard/docs/main.ts starts). */
const SCALAR_STANDALONE = "node_modules/@scalar/api-reference/dist/browser/standalone.js";

const shortHash = (bytes: Uint8Array) => Bun.hash.wyhash(bytes).toString(36);

/** Bundles one entry (minified, production React/Preact); its outputs are named `<page>-…-<hash>.<ext>`. */
async function bundle(page: string, entry: string): Promise<{ assets: Asset[]; page: PageAssets }> {
  const result = await Bun.build({
    entrypoints: [join(ROOT, entry)],
    target: "browser",
    format: "iife",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
    naming: {
      entry: `${page}-[hash].[ext]`,
      chunk: `${page}-chunk-[hash].[ext]`,
      asset: `${page}-[name]-[hash].[ext]`,
    },
    throw: false,
  });
  if (!result.success) throw new Error(`bundling ${entry} failed:\n${result.logs.map(String).join("\n")}`);
  const assets: Asset[] = [];
  const out: PageAssets = { scripts: [], styles: [] };
  for (const artifact of result.outputs) {
    const name = basename(artifact.path);
    assets.push(withGzip(name, typeOf(name), new Uint8Array(await artifact.arrayBuffer())));
    if (artifact.kind === "entry-point") out.scripts.push(name);
    else if (name.endsWith(".css")) out.styles.push(name);
  }
  return { assets, page: out };
}

/**
 * Builds every browser asset in memory: the dashboard, GraphiQL and the /docs page. The same sources give the same
 * names, so gateway replicas of one version serve the same URLs.
 */
export async function buildWebAssets(): Promise<WebAssets> {
  const [dashboard, graphiql, docs] = await Promise.all(
    (Object.keys(ENTRIES) as (keyof typeof ENTRIES)[]).map((page) => bundle(page, ENTRIES[page])),
  );
  const { body: scalarBody } = servedScalarBundle(new Uint8Array(readFileSync(join(ROOT, SCALAR_STANDALONE))));
  const scalar = withGzip(`scalar-${shortHash(scalarBody)}.js`, typeOf(".js"), scalarBody);
  const files = new Map<string, Asset>();
  for (const asset of [...dashboard!.assets, ...graphiql!.assets, ...docs!.assets, scalar])
    files.set(asset.name, asset);
  return {
    files,
    pages: {
      dashboard: dashboard!.page,
      graphiql: graphiql!.page,
      docs: { scripts: [scalar.name, ...docs!.page.scripts], styles: docs!.page.styles },
    },
  };
}

// `bun gateway/web/build.ts <dir>`: the container image builds the assets once (Dockerfile, stage `web`).
if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: bun gateway/web/build.ts <output directory>");
  const started = performance.now();
  const assets = await buildWebAssets();
  writeWebAssets(resolve(dir), assets);
  console.log(`built ${assets.files.size} files into ${dir} in ${Math.round(performance.now() - started)} ms`);
}
