import * as streamable from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ServiceError } from "../../services/contract/errors";
import type { GatewayDeps } from "../deps";
import { settleConnection } from "../http/body/body";
import { type Exchange, exchange, jsonBody, type Surface } from "../http/exchange/exchange";
import { errorResponse } from "../http/envelope/envelope";
import { requestIdOf } from "../http/exchange/request-id";
import { unframedTraceHeader } from "../http/observability/request-trace";
import { createMcpServer } from "./server";
import { MCP_TOOLS } from "./tools";

export const MCP_PATH = "/mcp";

const TOOL_NAMES = new Set(MCP_TOOLS.map((t) => t.name));

/** The usage label of one MCP request: the tool it calls (one of ours: labels stay a small set), else MCP. */
function usageLabel(body: Record<string, unknown> | undefined): string {
  const params = body?.params as { name?: unknown } | undefined;
  const name = body?.method === "tools/call" ? params?.name : undefined;
  return typeof name === "string" && TOOL_NAMES.has(name) ? `MCP ${name}` : "MCP";
}

/**
 * The Streamable HTTP endpoint of the MCP adapter, in the one request frame (http/exchange): REST's door (the same
 * guard, so the same key, rate limit, usage accounting and metrics; 401/429 in the REST envelope), then one
 * stateless MCP server for the request: no session lives in a replica, so any replica can answer any request.
 * Answers are plain JSON (no SSE stream), and GET/DELETE, which only sessions use, are 405.
 */
export function mcpHandler(deps: GatewayDeps) {
  return (request: Request): Response | Promise<Response> => {
    if (request.method !== "POST") {
      const error = new ServiceError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; allowed: POST`, {
        allowed: ["POST"],
      });
      const headers = { Allow: "POST", ...unframedTraceHeader(request) };
      return settleConnection(request, errorResponse(error, requestIdOf(request), headers));
    }
    return exchange(deps, SURFACE, request, runMcp, undefined);
  };
}

const SURFACE: Surface = { method: "POST", route: MCP_PATH, usage: "MCP" };

/** One JSON-RPC message, answered by a server made for this request. */
async function runMcp(ex: Exchange): Promise<Response> {
  const body = await jsonBody(ex);
  ex.usage = usageLabel(body);
  const transport = new streamable.WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  const server = createMcpServer({ deps: ex.deps, identity: ex.identity, requestId: ex.requestId, trace: ex.trace });
  await server.connect(transport);
  let res: Response;
  try {
    res = await transport.handleRequest(ex.request, { parsedBody: body });
  } finally {
    await server.close();
  }
  for (const [k, v] of Object.entries({ ...ex.headers, "X-Request-Id": ex.requestId })) res.headers.set(k, v);
  return res;
}
