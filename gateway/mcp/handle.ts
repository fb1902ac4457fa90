import * as streamable from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ServiceError, toServiceError } from "../../services/contract/errors";
import { errorFields } from "../../services/kit/log";
import type { GatewayDeps } from "../deps";
import { readJsonObject } from "../http/body/body";
import { errorResponse } from "../http/envelope/envelope";
import { requestIdOf } from "../http/exchange/request-id";
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
 * The Streamable HTTP endpoint of the MCP adapter. It passes REST's door first (the same guard, so the
 * same key, rate limit and usage accounting; 401/429 in the REST envelope), then runs one stateless MCP
 * server for the request: no session lives in a replica, so any replica can answer any request. Answers
 * are plain JSON (no SSE stream), and GET/DELETE, which only sessions use, are 405.
 */
export function mcpHandler(deps: GatewayDeps) {
  return async (request: Request): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    if (request.method !== "POST") {
      const error = new ServiceError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; allowed: POST`, {
        allowed: ["POST"],
      });
      return errorResponse(error, requestId, { Allow: "POST" });
    }
    const admission = await deps.guard.admit(request, requestId);
    let body: Record<string, unknown> | undefined;
    let res: Response;
    if (!admission.ok) res = errorResponse(admission.error, requestId, admission.headers);
    else {
      try {
        body = await readJsonObject(request, deps.config.BODY_LIMIT_BYTES);
        const transport = new streamable.WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
        const server = createMcpServer({ deps, identity: admission.identity, requestId });
        await server.connect(transport);
        try {
          res = await transport.handleRequest(request, { parsedBody: body });
        } finally {
          await server.close();
        }
        for (const [k, v] of Object.entries({ ...admission.headers, "X-Request-Id": requestId })) res.headers.set(k, v);
      } catch (err) {
        if (!(err instanceof ServiceError))
          deps.log.error("unexpected mcp gateway error", { request_id: requestId, ...errorFields(err) });
        res = errorResponse(toServiceError(err), requestId, admission.headers);
      }
    }
    const caller = admission.identity?.caller;
    if (caller) deps.usage.record(caller, usageLabel(body), res.status);
    deps.metrics.observeHttp("POST", MCP_PATH, res.status, (performance.now() - started) / 1000);
    return res;
  };
}
