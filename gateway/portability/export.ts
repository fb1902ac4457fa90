import { exportPage } from "../../services/contract/portability";
import { coerceQuery } from "../../services/contract/validation";
import { toServiceError } from "../../services/contract/errors";
import { parseQuery } from "../http/body/query";
import type { Exchange } from "../http/exchange/exchange";

export const NDJSON_HEADERS = { "Content-Type": "application/x-ndjson; charset=utf-8" };
const encoder = new TextEncoder();
const line = (x: unknown) => `${JSON.stringify(x)}\n`;

/**
 * `GET /v1/export`: the pages of `portability.export` as NDJSON, one page asked for when the client has read
 * the one before (the stream's pull), so the gateway holds one page whatever the size. After each page a
 * `{"type":"cursor"}` line says where `?cursor=` goes on; the last line is `{"type":"end"}` with the counts this
 * answer wrote. A failure after the first page is an `{"type":"error"}` line (the status is sent already).
 */
export async function serveExport(ex: Exchange): Promise<Response> {
  const { deps, request } = ex;
  const input = exportPage.validate(coerceQuery(exportPage.input, parseQuery(request.url)));
  const ctx = { requestId: ex.requestId, caller: ex.caller, trace: ex.trace };
  const fetchPage = (cursor: string | undefined) =>
    deps.bus.call(exportPage, { limit: input.limit, ...(cursor ? { cursor } : {}) }, ctx, { timeoutMs: 30_000 });
  // The first page before the status: a bad cursor is a 400, not a broken stream.
  let first: Awaited<ReturnType<typeof fetchPage>> | null = await fetchPage(input.cursor);
  let cursor: string | null = null;
  const counts = { tags: 0, entities: 0, memories: 0 };
  const KIND = { tag: "tags", entity: "entities", memory: "memories" } as const;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const page = first ?? (await fetchPage(cursor!));
        first = null;
        let text = "";
        for (const r of page.records) {
          counts[KIND[r.type]]++;
          text += line(r);
        }
        text += line({ type: "cursor", cursor: page.cursor });
        if (page.cursor === null) text += line({ type: "end", counts });
        controller.enqueue(encoder.encode(text));
        cursor = page.cursor;
        if (cursor === null) controller.close();
      } catch (err) {
        const e = toServiceError(err);
        controller.enqueue(encoder.encode(line({ type: "error", code: e.code, message: e.message })));
        controller.close();
      }
    },
  });
  return new Response(body, {
    headers: { ...NDJSON_HEADERS, ...ex.headers, "X-Request-Id": ex.requestId },
  });
}
