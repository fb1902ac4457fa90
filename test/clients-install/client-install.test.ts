import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newTenant } from "../api";
import { testStack } from "../harness";
import { runProcess } from "../process-helpers";
import {
  emptyProject,
  fillIn,
  offlineNpmEnv,
  outsideRepo,
  readmeBlock,
  removeFolders,
  runShell,
  unbuiltCheckout,
} from "./install-helpers";

/** An application's first use of the client: create a memory, read it back, find it in the list. */
const APP = `
import { createClient } from "@memory-service/client";
const memory = createClient({ baseUrl: process.env.MEMORY_SERVICE_URL, apiKey: process.env.MEMORY_SERVICE_API_KEY });
const created = await memory.memories.create({ content: process.env.CONTENT });
const read = await memory.memories.get(created.id);
const { items } = await memory.memories.list({ limit: 10 });
console.log(JSON.stringify({ id: created.id, content: read.content, listed: items.some((m) => m.id === created.id) }));
`;

let baseUrl: string;
let key: string;

beforeAll(async () => {
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  key = (await newTenant(stack.baseUrl, stack.adminKey)).key;
}, 120_000);
afterAll(removeFolders);

/** The application run by Node and by Bun from its own folder: each call reaches the service. */
async function runsInNodeAndBun(app: string) {
  writeFileSync(join(app, "index.mjs"), APP);
  for (const runtime of ["node", process.execPath]) {
    const content = `written from ${runtime === "node" ? "Node" : "Bun"}`;
    const env = { ...process.env, MEMORY_SERVICE_URL: baseUrl, MEMORY_SERVICE_API_KEY: key, CONTENT: content };
    const r = await runProcess([runtime, "index.mjs"], { cwd: app, env });
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(r.out)).toMatchObject({ content, listed: true });
  }
  expect(readFileSync(join(app, "node_modules/@memory-service/client/dist/index.d.ts"), "utf8")).toContain("export");
}

describe("the TypeScript client, installed as the README says into a project outside the repository", () => {
  test("from the checkout's folder: one npm install builds the client, Node and Bun import it", async () => {
    const checkout = unbuiltCheckout();
    const app = emptyProject();
    const places = { checkout, app, tarballs: "" };
    await runShell(fillIn(readmeBlock("client-install-path"), places), app, offlineNpmEnv(outsideRepo("npm-cache-")));
    // npm links the folder: the application follows the checkout.
    expect(realpathSync(join(app, "node_modules/@memory-service/client"))).toBe(join(checkout, "clients/typescript"));
    await runsInNodeAndBun(app);
  }, 60_000);

  test("from the tarball npm run pack:clients writes: offline, pinned by its sha256, no checkout needed", async () => {
    const checkout = unbuiltCheckout();
    const app = emptyProject();
    const block = fillIn(readmeBlock("client-install-tarball"), { checkout, app, tarballs: "" });
    const { out } = await runShell(block, app, offlineNpmEnv(outsideRepo("npm-cache-")));
    const tarball = join(checkout, "dist-clients/memory-service-client-0.1.0.tgz");
    const sha256 = createHash("sha256").update(readFileSync(tarball)).digest("hex");
    expect(out).toContain(`${tarball}\nsha256 ${sha256}\n`);
    const installed = join(app, "node_modules/@memory-service/client");
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    // What an application installs holds nothing to build or fetch.
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect([manifest.scripts, manifest.dependencies, manifest.devDependencies]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    rmSync(checkout, { recursive: true, force: true });
    await runsInNodeAndBun(app);
  }, 60_000);
});
