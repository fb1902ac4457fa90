// Builds dist/: ESM JavaScript and type declarations, with the package's own TypeScript 5.
// It is the package's `prepare` script, so it runs on every `npm install` in the repository (the client is one of
// its workspaces), on `npm install <path>/clients/typescript` and on `npm pack`. It does nothing when dist/ holds
// a build of the same sources, and it swaps a new build in whole, so a running process never sees half of one.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
/** The hash of the sources dist/ was built from; package.json "files" leaves it out of the tarball. */
const stampFile = join(dist, ".build-hash");

function typescriptDir() {
  try {
    return dirname(createRequire(import.meta.url).resolve("typescript/package.json"));
  } catch {
    const root = join(here, "..", "..");
    // The repository's own install without its dev dependencies (--omit=dev) has no use for the client: it goes on.
    if (process.env.INIT_CWD === root) {
      process.stderr.write("@memory-service/client: not built (no TypeScript: dev dependencies omitted)\n");
      process.exit(0);
    }
    process.stderr.write(`@memory-service/client: its build needs TypeScript: run \`npm install\` in ${root} first\n`);
    process.exit(1);
  }
}

/** The files under `dir`, recursively, sorted so the same tree always hashes the same. */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath ?? e.path, e.name))
    .sort();
}

function sourceHash(tsDir) {
  const hash = createHash("sha256");
  const own = ["build.mjs", "package.json", "tsconfig.build.json"].map((f) => join(here, f));
  for (const file of [...files(join(here, "src")), ...own])
    hash.update(`${relative(here, file)}\0${readFileSync(file, "utf8")}\0`);
  return hash.update(JSON.parse(readFileSync(join(tsDir, "package.json"), "utf8")).version).digest("hex");
}

/** Moves `from` to `to`; false when a build running at the same time got there first. */
function move(from, to) {
  try {
    renameSync(from, to);
    return true;
  } catch (err) {
    if (["ENOENT", "ENOTEMPTY", "EEXIST"].includes(err.code)) return false;
    throw err;
  }
}

/** Compiles into a folder of its own, then puts it in dist/'s place; answers tsc's exit code. */
function build(tsDir, hash) {
  const next = join(here, `dist.${process.pid}.tmp`);
  const old = join(here, `dist.${process.pid}.old`);
  try {
    const tsc = join(tsDir, "bin", "tsc");
    // tsc prints its own errors.
    const { status } = spawnSync(process.execPath, [tsc, "-p", join(here, "tsconfig.build.json"), "--outDir", next], {
      stdio: "inherit",
    });
    if (status !== 0) return status ?? 1;
    chmodSync(join(next, "mcp-stdio-bin.js"), 0o755);
    writeFileSync(join(next, ".build-hash"), hash);
    // A build of the same sources running at the same time may win either move; its output is the same.
    move(dist, old);
    if (!move(next, dist) && readFileSync(stampFile, "utf8") !== hash)
      throw new Error("dist/ changed during the build");
    return 0;
  } finally {
    rmSync(next, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

const tsDir = typescriptDir();
const hash = sourceHash(tsDir);
const built = ["index.js", "index.d.ts", "mcp-stdio-bin.js"].every((f) => existsSync(join(dist, f)));
if (!built || !existsSync(stampFile) || readFileSync(stampFile, "utf8") !== hash) process.exitCode = build(tsDir, hash);
