import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { resolve } from "node:path";

/** The stdio bridge's entry point, from source: a desktop config runs its build, `dist/mcp-stdio-bin.js`. */
export const STDIO_BIN = resolve(import.meta.dir, "../../clients/typescript/src/mcp-stdio-bin.ts");

/** The official SDK client over Streamable HTTP at `<baseUrl>/mcp`, with the key as a Bearer token. */
export async function httpClient(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: "memory-service-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** The official SDK client over stdio, spawning the bridge the way a desktop client does. */
export async function stdioClient(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: "memory-service-tests", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [STDIO_BIN],
    env: { PATH: process.env.PATH ?? "", MEMORY_SERVICE_URL: baseUrl, MEMORY_SERVICE_API_KEY: key },
    stderr: "pipe",
  });
  await client.connect(transport);
  return client;
}

/** A tool call's structured answer, or its error body when the tool refused. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, data: result.structuredContent as any, content: result.content as any };
}
