import { type ServiceError, validationError } from "../../../services/contract/errors";
import { checkJsonDepth } from "./json-depth";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const MIB = 1024 * 1024;

/**
 * A body the answer does not need (over the limit, or never read: a 401, an unknown route) is read on
 * and dropped up to this size, for this long, and while the client keeps sending (a pause of `idleMs`
 * ends it), so that the client, still sending, gets to read the answer: Node's fetch fails with EPIPE on
 * a connection closed while it sends. Past a bound the answer goes out with `Connection: close`.
 */
export const DISCARD = { maxBytes: 64 * MIB, maxMs: 10_000, idleMs: 1_000 };
export type DiscardBounds = typeof DISCARD;
/**
 * Bun's own cap (`maxRequestBodySize`): a declared Content-Length above it is refused by Bun with a
 * bare 413 before the gateway sees the request. Below it, a body the gateway did not read is drained
 * before the answer (settleConnection), and Bun drains what a bound left. One MiB above the discard
 * bound, so that the reader (whose chunks overshoot its count by less) cuts a streamed body before Bun does.
 */
export const SERVER_MAX_BODY_BYTES = DISCARD.maxBytes + MIB;

/** Requests whose streamed body was read to its end: their connection can serve the next request. */
const readToEnd = new WeakSet<Request>();

const tooLarge = (limit: number) =>
  validationError("body", "max_bytes", `Request body exceeds ${limit} bytes`, { max: limit });

const cutShort = () => validationError("body", "incomplete", "The request body ended before it was complete");

/**
 * Reads a JSON object body without ever buffering more than `limit` bytes: a declared
 * Content-Length over the limit is refused before reading (drained before the answer goes out,
 * settleConnection), a streamed body as soon as it passes the limit, its rest discarded.
 */
export async function readJsonObject(
  request: Request,
  limit: number,
  discard: DiscardBounds = DISCARD,
): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch {
        throw cutShort(); // the client went away mid-body
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await discardRest(request, reader, size, discard);
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
    readToEnd.add(request);
  }
  if (size === 0) throw validationError("body", "required", "A JSON object body is required");
  // Decoding with replacement would store U+FFFD in place of what the client sent: refuse instead.
  let text: string;
  try {
    text = utf8.decode(Buffer.concat(chunks, size));
  } catch {
    throw validationError("body", "utf8", "Request body is not valid UTF-8");
  }
  // Before parsing: every later step (validation, JSON.stringify, the services) then meets bounded nesting.
  checkJsonDepth(text, "body");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationError("body", "json", "Request body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw validationError("body", "type", "Request body must be a JSON object");
  }
  const refusal = surrogateRefusal(parsed);
  if (refusal) throw refusal;
  return parsed as Record<string, unknown>;
}

/** Reads and drops the rest of a body, within the bounds; cancels it when a bound stops the reading. */
async function discardRest(
  request: Request,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  size: number,
  bounds: DiscardBounds,
): Promise<void> {
  const deadline = performance.now() + bounds.maxMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pause = (ms: number) => new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    while (size <= bounds.maxBytes) {
      const wait = Math.min(bounds.idleMs, deadline - performance.now());
      if (wait <= 0) break;
      const next = await Promise.race([reader.read(), pause(wait)]);
      clearTimeout(timer);
      if (next === null) break;
      if (next.done) return void readToEnd.add(request);
      size += next.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to drain.
  } finally {
    clearTimeout(timer);
  }
  await reader.cancel().catch(() => undefined);
}

/**
 * A body nobody read before its answer goes out (a 401, a 404, a 400 before reading), or null. Bun would
 * otherwise write the answer while the client still sends, and close the connection under it when the body is
 * chunked, or now and then under load: the client then gets EPIPE rather than the answer. A client that waits for
 * `100 Continue` has sent nothing: it gets the answer at once. A body the handler began to read (a stream it
 * holds) is its own.
 */
function unreadBody(request: Request): ReadableStream<Uint8Array> | null {
  const body = request.body;
  if (!body || request.bodyUsed || body.locked || readToEnd.has(request)) return null;
  if (request.headers.get("expect")?.toLowerCase() === "100-continue") return null;
  return body;
}

/**
 * The answer to a request, once its unread body is drained within the bounds (unreadBody); synchronous when there
 * is none, so a request without a body, or with one read whole, pays no await. A body that came without a length
 * (chunked) and was still not read to its end closes the connection: Bun would otherwise drain it for as long as
 * the client sends it. A declared length is drained by Bun within SERVER_MAX_BODY_BYTES, keeping the connection.
 */
export function settleConnection(
  request: Request,
  response: Response,
  bounds: DiscardBounds = DISCARD,
): Response | Promise<Response> {
  const unread = unreadBody(request);
  if (!unread) return closeIfUnfinished(request, response);
  return discardRest(request, unread.getReader(), 0, bounds).then(() => closeIfUnfinished(request, response));
}

function closeIfUnfinished(request: Request, response: Response): Response {
  if (!request.headers.has("transfer-encoding") || readToEnd.has(request)) return response;
  try {
    response.headers.set("Connection", "close");
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("Connection", "close");
    return copy;
  }
}

/**
 * Where the first string (or key) holding a lone UTF-16 surrogate is, as a dotted path; null if
 * none. JSON lets `"\uD800"` through, but it cannot be stored as UTF-8: Redis would keep U+FFFD and
 * the text would not come back as sent. Breadth first over a flat list (a deeply nested body cannot
 * overflow the stack), and a path is only spelled out for the value found.
 */
export function unpairedSurrogateAt(root: object): string | null {
  const values: unknown[] = [root];
  const parents: number[] = [-1];
  const keys: string[] = [""];
  const pathOf = (i: number) => {
    const parts: string[] = [];
    for (let at = i; at > 0; at = parents[at]!) parts.push(keys[at]!);
    return parts.reverse().join(".") || "body";
  };
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value === "string") {
      if (!value.isWellFormed()) return pathOf(i);
    } else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        values.push(child);
        parents.push(i);
        keys.push(key);
        if (!key.isWellFormed()) return pathOf(values.length - 1);
      }
    }
  }
  return null;
}

/** The refusal of a parsed value with a lone surrogate in a string or key (its path the field), or null. */
export function surrogateRefusal(value: object): ServiceError | null {
  const unpaired = unpairedSurrogateAt(value);
  if (unpaired === null) return null;
  const message = `${unpaired} contains an unpaired UTF-16 surrogate, which is not Unicode text`;
  return validationError(unpaired, "unicode", message);
}
