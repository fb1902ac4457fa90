/**
 * MCP over stdio for desktop clients, as a bridge: each JSON-RPC message read from stdin is POSTed to the
 * service's Streamable HTTP endpoint (`<url>/mcp`) with the API key, and each answer is written to stdout,
 * one message per line. The tools live in the service, so the bridge needs nothing beyond `fetch`.
 */

export interface BridgeOptions {
  /** The service's base URL, e.g. https://memory.example.com */
  url: string;
  /** An API key (svc_live_… or svc_test_…) with the scopes the tools need. */
  apiKey: string;
  /** One line per JSON-RPC message. */
  lines: AsyncIterable<string>;
  write: (line: string) => void;
  log?: (message: string) => void;
  fetch?: typeof fetch;
}

type JsonRpcId = string | number | null;
interface JsonRpcMessage {
  jsonrpc: "2.0";
  id?: JsonRpcId;
  method?: string;
  [key: string]: unknown;
}

/** JSON-RPC's code for an error on the server side that has no code of its own. */
const SERVER_ERROR = -32000;
const PARSE_ERROR = -32700;

const errorMessage = (id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcMessage => ({
  jsonrpc: "2.0",
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

/** The messages of an SSE body: each event's `data:` lines joined. */
function sseMessages(text: string): unknown[] {
  const out: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart())
      .join("\n");
    if (data) out.push(JSON.parse(data));
  }
  return out;
}

async function forward(message: JsonRpcMessage, options: BridgeOptions): Promise<unknown[]> {
  const id = message.id ?? null;
  const isRequest = message.id !== undefined && typeof message.method === "string";
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(`${options.url.replace(/\/+$/, "")}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${options.apiKey}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(message),
    });
  } catch (err) {
    return isRequest ? [errorMessage(id, SERVER_ERROR, `Memory service unreachable: ${String(err)}`)] : [];
  }
  const text = await res.text();
  if (res.status === 202 || text === "") return [];
  const type = res.headers.get("content-type") ?? "";
  const body = type.includes("text/event-stream") ? sseMessages(text) : [JSON.parse(text)].flat();
  if (res.ok) return body;
  // The service's own refusals (401, 403, 429…) come in its error envelope: one JSON-RPC error naming the code.
  const envelope = body[0] as { error?: { code?: string; message?: string } } | undefined;
  if (envelope && "jsonrpc" in envelope) return isRequest ? [{ ...envelope, id }] : [];
  const error = envelope?.error;
  const messageText = error ? `${error.code}: ${error.message}` : `HTTP ${res.status}`;
  return isRequest ? [errorMessage(id, SERVER_ERROR, messageText, error)] : [];
}

/** Runs until `lines` ends; requests are forwarded concurrently and answered in the order they finish. */
export async function runStdioBridge(options: BridgeOptions): Promise<void> {
  const pending = new Set<Promise<void>>();
  for await (const line of options.lines) {
    if (line.trim() === "") continue;
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(line);
    } catch {
      options.write(JSON.stringify(errorMessage(null, PARSE_ERROR, "Parse error")));
      continue;
    }
    const done = forward(message, options)
      .then((answers) => {
        for (const answer of answers) options.write(JSON.stringify(answer));
      })
      .catch((err) => options.log?.(`memory-service-mcp: ${String(err)}`));
    pending.add(done);
    done.finally(() => pending.delete(done));
  }
  await Promise.all(pending);
}
