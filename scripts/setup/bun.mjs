// Bun comes from npm: `npm install` puts it at node_modules/.bin/bun.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { spawnTracked } from "./background.mjs";
import { log, run, SetupError } from "./shell.mjs";

/**
 * Installs the npm packages when Bun is missing, quietly: warnings (engine notices) hidden, errors in full. Resolves
 * once Bun runs; the caller's other set-up steps proceed meanwhile.
 * @returns {Promise<string>} Bun's path
 */
export async function ensureBun(root) {
  const bun = join(root, "node_modules", ".bin", "bun");
  if (existsSync(bun) && run(bun, ["--version"]).ok) return bun;
  log("installing the npm packages (npm install)…");
  const started = Date.now();
  // Node 20 gets EBADENGINE warnings from packages that want Node 22; the code runs on Bun, so they are noise.
  const npm = spawnTracked("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    // Its own process group, which a signal to the bootstrap stops as a whole: install scripts are npm's children.
    group: true,
  });
  const status = await new Promise((resolve) => {
    npm.on("error", () => resolve(null));
    npm.on("close", (code) => resolve(code));
  });
  if (status !== 0) throw new SetupError("`npm install` failed (see the output above).");
  if (!run(bun, ["--version"]).ok)
    throw new SetupError(
      "npm install finished but node_modules/.bin/bun does not run; " +
        "check that the `bun` package's postinstall was allowed (package.json allowScripts).",
    );
  log(`installed the npm packages in ${Math.round((Date.now() - started) / 1000)} s`);
  return bun;
}
