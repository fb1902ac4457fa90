// Builds dist/: ESM JavaScript and type declarations, with the package's own TypeScript 5.
import { chmodSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
rmSync(join(here, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", join(here, "tsconfig.build.json")], { stdio: "inherit" });
chmodSync(join(here, "dist", "mcp-stdio-bin.js"), 0o755);
