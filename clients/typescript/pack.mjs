// `npm run pack:clients`: builds the client and writes its tarball to dist-clients/ at the repository's root, an
// installable package that needs neither this repository nor the npm registry. Prints the tarball's path and
// sha256, to pin it by: the same sources give the same bytes.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "..", "dist-clients");

/** Runs a command with its report on stderr, so stdout says only what was written; exits on failure. */
function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout}${basename(command)} ${args.join(" ")} failed (exit ${r.status})\n`);
    process.exit(1);
  }
  return r.stdout;
}

process.stderr.write(run(process.execPath, [join(here, "build.mjs")], here));
// The tarball's package.json names what an application needs: no build scripts, no devDependencies. Without a
// `prepare`, installing it runs nothing, so npm has no install script to ask about.
const { scripts, devDependencies, ...manifest } = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
const stage = mkdtempSync(join(tmpdir(), "memory-service-client-"));
try {
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(here, "README.md"), join(stage, "README.md"));
  cpSync(join(here, "dist"), join(stage, "dist"), { recursive: true, filter: (src) => !src.endsWith(".build-hash") });
  mkdirSync(out, { recursive: true });
  for (const { filename } of JSON.parse(run("npm", ["pack", "--json", "--pack-destination", out], stage))) {
    const file = join(out, filename);
    const sha256 = createHash("sha256").update(readFileSync(file)).digest("hex");
    process.stdout.write(`${file}\nsha256 ${sha256}\n`);
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}
