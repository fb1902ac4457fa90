import {
  IMPORT_CHUNK_MAX,
  importRecords,
  importTags,
  RECORD_VALIDATORS,
  type ImportReport,
  type LineResult,
  type RecordType,
} from "../../services/contract/portability";
import { ServiceError, toServiceError, validationError } from "../../services/contract/errors";
import type { Caller } from "../../services/contract/op";
import type { Exchange } from "../http/exchange/exchange";
import { rawSuccessResponse, roundMs } from "../http/envelope/envelope";
import type { GatewayDeps } from "../deps";
import { idempotencyKeyOf } from "../http/idempotency/key";
import { checkJsonDepth } from "../http/body/json-depth";
import { surrogateRefusal } from "../http/body/body";

/** A line longer than this is refused alone: the largest valid memory record is well below it. */
export const IMPORT_LINE_MAX_BYTES = 1024 * 1024;
/** A chunk goes out at IMPORT_CHUNK_MAX lines or at this many bytes of them, whichever comes first. */
const CHUNK_MAX_BYTES = 4 * 1024 * 1024;
const ERRORS_MAX = 1000;
/** Lines an export writes that carry no data: an import passes over them. */
const PASSED_OVER = new Set(["cursor", "end"]);

type Pending = { line: number; record: { type: RecordType } & Record<string, unknown> };

/**
 * `POST /v1/import`: an export's NDJSON, read as it arrives and sent on in chunks (one `tags.import` or
 * `memories.import` call each, in file order), so the gateway holds one chunk whatever the size. Each line
 * is checked alone: a bad line is reported with its number and the rest goes on. The answer, once the body
 * has been read to its end, is the report: counts and at most 1000 errors, by line.
 */
export function serveImport(ex: Exchange): Promise<Response> {
  const key = idempotencyKeyOf(ex.request);
  return key === null ? importLines(ex) : serveKeyedImport(ex, key);
}

/**
 * An import with an Idempotency-Key. Two imports are the same request when their bodies are the same bytes, known
 * once the body has been read: a kept answer is answered then (or 422), without importing anything. An import
 * that ends in an error (its body cut short, a failure) frees its key rather than keep that answer: importing
 * is idempotent by itself, so the retry runs and reports what went in before as existing.
 */
async function serveKeyedImport(ex: Exchange, key: string): Promise<Response> {
  const { deps, request } = ex;
  const claim = await deps.idempotency.claimStreamed(ex.caller, key, ex.requestId, ex.headers);
  const hash = new Bun.CryptoHasher("sha256").update("POST /import\n");
  const read = (chunk: Uint8Array) => hash.update(chunk);
  if ("kept" in claim) {
    for await (const _ of linesOf(request, read));
    return claim.kept(hash.digest("hex"));
  }
  try {
    const res = await importLines(ex, read);
    return await claim.finish(res, true, hash.digest("hex"));
  } catch (err) {
    await claim.finish(new Response(null), false, "");
    throw err;
  }
}

/** Reads the body's lines, sends them on in chunks, and answers the report. */
async function importLines(ex: Exchange, read?: (chunk: Uint8Array) => void): Promise<Response> {
  const report = newReport();
  const send = chunkSender(ex.deps, ex.caller, ex.requestId, report);
  let pending: Pending[] = [];
  let pendingBytes = 0;
  const flying = new InFlight();
  const flush = async () => {
    const chunk = pending;
    pending = [];
    pendingBytes = 0;
    if (chunk.length > 0) await flying.send(chunk, () => send(chunk));
  };
  for await (const { line, text, refused } of linesOf(ex.request, read)) {
    if (refused === null && text.trim() === "") continue;
    report.lines++;
    const record = refused ?? parseLine(text);
    if (record instanceof Error) {
      addError(report, line, record);
      continue;
    }
    if (PASSED_OVER.has(record.type)) continue;
    const toTags = record.type === "tag";
    if (pending.length > 0 && (pending[0]!.record.type === "tag") !== toTags) await flush();
    pending.push({ line, record });
    pendingBytes += text.length;
    if (pending.length >= IMPORT_CHUNK_MAX || pendingBytes >= CHUNK_MAX_BYTES) await flush();
  }
  await flush();
  await flying.settled();
  report.errors.sort((a, b) => a.line - b.line);
  const data = new TextEncoder().encode(JSON.stringify(report));
  const meta = { request_id: ex.requestId, latency_ms: roundMs(performance.now() - ex.started) };
  return rawSuccessResponse(data, meta, ex.headers);
}

/** Chunks of memories sent at once at most, when none names a memory of another. */
const IN_FLIGHT_MAX = 6;

/**
 * Which chunks are in flight. A chunk of memories goes at once, beside others, when none of its lines names (as
 * parent, superseded or superseding memory) a memory of a chunk still in flight; anything else waits for every
 * chunk in flight first, and tags and entities (which later lines link to by name) are waited for before anything
 * goes after them.
 * So a line always finds what it names written, and the services work on a few chunks at once.
 */
class InFlight {
  private readonly chunks = new Map<Promise<void>, Set<string>>();
  private barrier = false;

  async send(chunk: Pending[], send: () => Promise<void>): Promise<void> {
    const memories = chunk.every((p) => p.record.type === "memory");
    const names = (p: Pending) => [p.record.parent_memory_id, p.record.supersedes, p.record.superseded_by] as unknown[];
    const dependent = () =>
      [...this.chunks.values()].some((ids) => chunk.some((p) => names(p).some((n) => ids.has(n as string))));
    if (this.barrier || !memories || dependent()) await this.settled();
    while (this.chunks.size >= IN_FLIGHT_MAX) await Promise.race(this.chunks.keys());
    const ids = new Set(chunk.map((p) => p.record.id as string));
    const sent: Promise<void> = send().finally(() => this.chunks.delete(sent));
    this.chunks.set(sent, ids);
    this.barrier = !memories;
  }

  async settled(): Promise<void> {
    await Promise.all(this.chunks.keys());
  }
}

function newReport(): ImportReport {
  const zero = () => ({ tags: 0, entities: 0, memories: 0 });
  return { lines: 0, created: zero(), existing: zero(), failed: 0, errors: [] };
}

/** A failed line (counted), or a note on a line that went in (`failed` false). */
function addError(report: ImportReport, line: number, err: unknown, failed = true) {
  if (failed) report.failed++;
  if (report.errors.length >= ERRORS_MAX) return;
  const e = err instanceof Error ? toServiceError(err) : (err as NonNullable<LineResult["error"]>);
  report.errors.push({ line, code: e.code, message: e.message, details: e.details ?? null });
}

const lineTooLong = () =>
  validationError("line", "max_bytes", `A line exceeds ${IMPORT_LINE_MAX_BYTES} bytes`, {
    max: IMPORT_LINE_MAX_BYTES,
  });

const notUtf8 = () => validationError("line", "utf8", "The line is not valid UTF-8");

/**
 * One line's record, or the error to report for it. A line is read by the rules of a request body (http/body/body.ts):
 * its nesting measured before it is parsed (a line nested 100,000 deep costs one pass and is refused alone), and
 * no string or key with a lone surrogate. Its schema and metadata are checked by the service that takes it.
 */
function parseLine(text: string): Pending["record"] | Error {
  let value: unknown;
  try {
    checkJsonDepth(text, "line");
    value = JSON.parse(text);
  } catch (err) {
    return err instanceof ServiceError ? err : validationError("line", "json", "The line is not valid JSON");
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !(PASSED_OVER.has(type) || Object.hasOwn(RECORD_VALIDATORS, type)))
    return validationError("type", "enum", "type must be one of: tag, entity, memory, cursor, end");
  if (PASSED_OVER.has(type)) return value as Pending["record"];
  return surrogateRefusal(value as object) ?? (value as Pending["record"]);
}

const KIND = { tag: "tags", entity: "entities", memory: "memories" } as const;

/** Sends one chunk to the service that owns its records and folds the answer into the report. */
function chunkSender(deps: GatewayDeps, caller: Caller, requestId: string, report: ImportReport) {
  return async (chunk: Pending[]) => {
    const ctx = { requestId, caller };
    const typeOf = new Map(chunk.map((p) => [p.line, p.record.type]));
    let results: LineResult[];
    try {
      const lines = chunk as never;
      const opts = { timeoutMs: 120_000 };
      results =
        chunk[0]!.record.type === "tag"
          ? (await deps.bus.call(importTags, { lines }, ctx, opts)).results
          : (await deps.bus.call(importRecords, { lines }, ctx, opts)).results;
    } catch (err) {
      for (const p of chunk) addError(report, p.line, err);
      return;
    }
    for (const r of results) {
      const kind = KIND[typeOf.get(r.line) as RecordType];
      if (r.status === "created") report.created[kind]++;
      else if (r.status === "exists") report.existing[kind]++;
      if (r.error) addError(report, r.line, r.error, r.status === "failed");
    }
  };
}

/**
 * The body's lines as they arrive, numbered from 1, decoded as UTF-8, each chunk of bytes shown to `read` first. A
 * line past IMPORT_LINE_MAX_BYTES is passed over to its end and answered as `refused`, so one huge line never sits
 * in memory; so is a line that is not UTF-8 (its text "").
 */
async function* linesOf(
  request: Request,
  read?: (chunk: Uint8Array) => void,
): AsyncGenerator<{ line: number; text: string; refused: Error | null }> {
  if (!request.body) return;
  // Fatal, as for a request body: replacing bytes with U+FFFD would store what the client did not send.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let line = 0;
  let buffered: Uint8Array[] = [];
  let size = 0;
  let tooLong = false;
  const take = () => {
    let text = "";
    let refused: Error | null = tooLong ? lineTooLong() : null;
    try {
      if (!tooLong) text = decoder.decode(Buffer.concat(buffered, size));
    } catch {
      refused = notUtf8();
    }
    buffered = [];
    size = 0;
    tooLong = false;
    return { line: ++line, text, refused };
  };
  const chunks = (request.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await chunks.next();
    } catch {
      // The client went away mid-body: what was sent on before stays in, the rest is its to send again.
      throw validationError("body", "incomplete", "The request body ended before it was complete");
    }
    if (next.done) break;
    const chunk = next.value;
    read?.(chunk);
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (!tooLong) {
        size += piece.length;
        if (size > IMPORT_LINE_MAX_BYTES) tooLong = true;
        else buffered.push(piece);
      }
      if (nl === -1) break;
      yield take();
      start = nl + 1;
    }
  }
  if (size > 0 || tooLong) yield take();
}
