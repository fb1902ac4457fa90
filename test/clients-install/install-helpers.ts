import {
  copyFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { runProcess } from "../process-helpers";

/** The repository's root: what `/path/to/memory-service` stands for in the README. */
export const REPO = resolve(import.meta.dir, "../..");

/**
 * The code block that follows `<!-- readme-test: <name> -->` in the README: the tests run what the README shows,
 * so they fail as soon as it shows something else.
 */
export function readmeBlock(name: string): string {
  const text = readFileSync(join(REPO, "README.md"), "utf8");
  const marker = `<!-- readme-test: ${name} -->`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no block marked ${marker}`);
  const block = text.slice(at + marker.length).match(/^\s*```[a-z]*\n([\s\S]*?)\n```/);
  if (!block?.[1]) throw new Error(`README.md's ${marker} is not followed by a code block`);
  return block[1];
}

/** What the README's placeholders stand for in one test: the checkout, the user's project, their stack. */
export interface Places {
  checkout: string;
  app: string;
  /** The folder holding a copy of the tarball, where a machine without the checkout keeps it. */
  tarballs: string;
  baseUrl?: string;
  key?: string;
}

/** The README's text with its placeholders replaced; a placeholder left over fails the test. */
export function fillIn(text: string, places: Places): string {
  const filled = text
    .replace(/\/path\/to\/memory-service(?![\w-])/g, places.checkout)
    .replaceAll("/path/to/your-app", places.app)
    .replaceAll("/path/to/memory-service-client-", `${places.tarballs}/memory-service-client-`)
    .replaceAll("http://127.0.0.1:3000", places.baseUrl ?? "http://127.0.0.1:3000")
    .replaceAll("svc_live_…", places.key ?? "svc_live_…");
  if (filled.includes("/path/to/")) throw new Error(`a placeholder the test does not know: ${filled}`);
  return filled;
}

const made: string[] = [];

/** A folder outside the repository (the system's temporary folder), resolved through symlinks. */
export function outsideRepo(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Removes every folder outsideRepo made. */
export function removeFolders(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** An empty npm project outside the repository, as a user's application starts. */
export function emptyProject(): string {
  const app = outsideRepo("memory-service-app-");
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "my-app", version: "1.0.0", private: true })}\n`);
  return app;
}

/**
 * npm without the network: its own empty cache and --offline, so an install that needs any registry package
 * fails instead of fetching it.
 */
export const offlineNpmEnv = (cache: string) => ({
  ...process.env,
  npm_config_cache: cache,
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
});

/** Runs a README shell block with `sh -e` from the user's project; fails with its output when a command fails. */
export async function runShell(script: string, cwd: string, env: Record<string, string | undefined>) {
  const r = await runProcess(["sh", "-ec", script], { cwd, env });
  if (r.code !== 0) throw new Error(`${script}\nexited ${r.code}:\n${r.out}${r.err}`);
  return r;
}

/** Runs `npm run pack:clients` in a checkout; answers the folder outside it that holds a copy of its tarball. */
export async function packAndCopy(checkout: string, env: Record<string, string | undefined>) {
  const { out } = await runShell("npm run pack:clients", checkout, env);
  const dir = outsideRepo("memory-service-tarballs-");
  for (const file of out.split("\n").filter((l) => l.endsWith(".tgz"))) copyFileSync(file, join(dir, basename(file)));
  return { dir, out };
}

/**
 * A checkout where `npm install` has run but dist/ was never built, as after a clone (or a pull that changed the
 * client): the client's own files, with the repository's installed packages (TypeScript 5, @types/node) linked in.
 * The tests build here, never in the repository's clients/typescript/dist/ that other tests import.
 */
export function unbuiltCheckout(): string {
  const checkout = outsideRepo("memory-service-checkout-");
  const client = join(checkout, "clients", "typescript");
  const source = join(REPO, "clients", "typescript");
  const unbuilt = (path: string) => !["dist", "node_modules"].includes(relative(source, path).split("/")[0]!);
  cpSync(source, client, { recursive: true, filter: unbuilt });
  symlinkSync(join(source, "node_modules"), join(client, "node_modules"));
  symlinkSync(join(REPO, "node_modules"), join(checkout, "node_modules"));
  copyFileSync(join(REPO, "package.json"), join(checkout, "package.json"));
  return checkout;
}
