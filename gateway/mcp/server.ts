import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { hasScope } from "../../services/contract/op";
import { ServiceError, toServiceError } from "../../services/contract/errors";
import { compileValidator } from "../../services/contract/validation";
import { errorFields } from "../../services/kit/log";
import type { CallerContext } from "../http/exchange/operation-call";
import { operationCallerOf } from "./call";
import { listResources, readResource, RESOURCE_TEMPLATES } from "./resources";
import { MCP_TOOLS, type McpTool } from "./tools";

/** The JSON-RPC code the MCP specification gives an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

export const SERVER_INFO = { name: "memory-service", version: "1.0.0" } as const;

const INSTRUCTIONS =
  "Long-term memory for this user or application. Call `recall` or `get_context` before answering " +
  "questions that may depend on earlier conversations or stored facts; call `remember` for anything " +
  "worth keeping (preferences, decisions, facts, conversation turns).";

// Compiled once: the tool list and its validators are the same for every request.
const validators = new Map(MCP_TOOLS.map((t) => [t.name, compileValidator(t.input)]));
/** Plain JSON Schema: TypeBox's symbols dropped, as MCP clients expect. */
const described = MCP_TOOLS.map((t) => ({
  tool: t,
  listing: {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: JSON.parse(JSON.stringify(t.input)),
    annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: t.name === "forget" },
  },
}));

/** A failed call is a tool error the model can read: our code, message and details, never a stack. */
function toolError(error: ServiceError): CallToolResult {
  const body = { error: error.toBody() };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * The MCP server for one HTTP request (the endpoint is stateless): the tools the caller's scopes allow,
 * and the memory and thread resources, all run as contract operations on the caller's behalf.
 */
export function createMcpServer(ctx: CallerContext): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions: INSTRUCTIONS,
  });
  const call = operationCallerOf(ctx);
  const caller = ctx.identity.caller;
  const usable = (t: McpTool) => t.scopes.every((s) => hasScope(caller, s));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: described.filter((d) => usable(d.tool)).map((d) => d.listing),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      const args = validators.get(tool.name)!(request.params.arguments ?? {});
      const answer = await tool.run(args, call);
      return { content: [{ type: "text", text: answer.text }], structuredContent: answer.data };
    } catch (err) {
      if (!(err instanceof ServiceError))
        ctx.deps.log.error("unexpected mcp tool error", {
          request_id: ctx.requestId,
          trace_id: ctx.trace?.traceId,
          ...errorFields(err),
        });
      return toolError(toServiceError(err));
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [...RESOURCE_TEMPLATES],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(call, caller) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return { contents: [await readResource(call, request.params.uri)] };
    } catch (err) {
      const error = toServiceError(err);
      // Resources have no "tool error": a JSON-RPC error carrying our code in `data`.
      const code = error.code === "NOT_FOUND" ? RESOURCE_NOT_FOUND : ErrorCode.InternalError;
      throw new McpError(code, error.message, { error: error.toBody() });
    }
  });
  return server;
}
