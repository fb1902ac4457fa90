import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { rmSync } from "node:fs";
import { newTenant } from "../api";
import { testStack } from "../harness";
import { callTool } from "../mcp/mcp-client";
import {
  emptyProject,
  fillIn,
  offlineNpmEnv,
  outsideRepo,
  packAndCopy,
  type Places,
  readmeBlock,
  removeFolders,
  runShell,
  unbuiltCheckout,
} from "./install-helpers";

interface DesktopServer {
  command: string;
  args: string[];
  env: Record<string, string>;
}

let baseUrl: string;
let key: string;

beforeAll(async () => {
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  key = (await newTenant(stack.baseUrl, stack.adminKey)).key;
}, 120_000);
afterAll(removeFolders);

/** The README's desktop config, its placeholders filled in: what a desktop client reads. */
function desktopConfig(name: string, places: Places): DesktopServer {
  const config = JSON.parse(fillIn(readmeBlock(name), { ...places, baseUrl, key }));
  return config.mcpServers.memory;
}

/**
 * Starts the server as a desktop client does (its command, args and env, from no particular folder), lists the
 * tools over stdio with the official SDK's client and calls one against the stack.
 */
async function listsToolsAndRemembers(server: DesktopServer, extraEnv: Record<string, string> = {}) {
  const client = new Client({ name: "desktop-app", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...server.env, ...extraEnv },
    cwd: outsideRepo("desktop-app-"),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["remember", "recall", "get_memory"]));
    const remembered = await callTool(client, "remember", { content: "Set up from the desktop config" });
    expect(remembered.isError).toBe(false);
    const read = await callTool(client, "get_memory", { id: remembered.data.id });
    expect(read.data.content).toBe("Set up from the desktop config");
  } catch (err) {
    throw new Error(`${String(err)}\nthe server's stderr:\n${stderr}`);
  } finally {
    await client.close();
  }
}

describe("the MCP stdio bridge, started exactly as the README's desktop configs say", () => {
  test("from the checkout: node runs the bridge npm install built", async () => {
    const checkout = unbuiltCheckout();
    const cache = outsideRepo("npm-cache-");
    // What `npm install` in the checkout runs for its client workspace.
    await runShell("npm run prepare", `${checkout}/clients/typescript`, offlineNpmEnv(cache));
    const server = desktopConfig("mcp-stdio-checkout", { checkout, app: "", tarballs: "" });
    expect(server.command).toBe("node");
    await listsToolsAndRemembers(server);
  }, 60_000);

  test("from the tarball: npx installs the file offline and runs its bin, no checkout needed", async () => {
    const checkout = unbuiltCheckout();
    const cache = outsideRepo("npm-cache-");
    const { dir } = await packAndCopy(checkout, offlineNpmEnv(cache));
    rmSync(checkout, { recursive: true, force: true });
    const server = desktopConfig("mcp-stdio-tarball", { checkout: "", app: emptyProject(), tarballs: dir });
    expect(server.command).toBe("npx");
    // Only the documented --package names what npx installs: a file, never a registry name.
    expect(server.args.filter((a) => a.startsWith("--package="))).toEqual([
      `--package=${dir}/memory-service-client-0.1.0.tgz`,
    ]);
    expect(server.args).toContain("--offline");
    // An empty npm cache of its own: the install comes from the file alone.
    await listsToolsAndRemembers(server, { npm_config_cache: outsideRepo("npm-cache-") });
  }, 60_000);
});
