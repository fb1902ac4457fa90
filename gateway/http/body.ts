import { validationError } from "../../services/contract/errors";
import { checkJsonDepth } from "./json-depth";

const utf8 = new TextDecoder("utf-8", { fatal: true });

const tooLarge = (limit: number) =>
  validationError("body", "max_bytes", `Request body exceeds ${limit} bytes`, { max: limit });

/**
 * Reads a JSON object body without ever buffering more than `limit` bytes: a declared
 * Content-Length over the limit is refused before reading, a streamed body as soon as it passes it.
 */
export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
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
  const unpaired = unpairedSurrogateAt(parsed);
  if (unpaired !== null) throw validationError(unpaired, "unicode", `${unpaired} contains an unpaired UTF-16 surrogate, which is not Unicode text`);
  return parsed as Record<string, unknown>;
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
