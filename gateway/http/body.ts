import { validationError } from "../../services/contract/errors";

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
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks, size).toString("utf8"));
  } catch {
    throw validationError("body", "json", "Request body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw validationError("body", "type", "Request body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}
