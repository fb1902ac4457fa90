import { AbortError, MemoryServiceError, type ErrorCode } from "./errors.ts";
import { DEFAULT_RETRY, retryDelayMs, retryReason, sleep, type RetryPolicy } from "./retry.ts";

export interface ClientOptions {
  /** The service's base URL, e.g. https://memory.example.com (paths start with /v1). */
  baseUrl: string;
  /** An API key (svc_live_… / svc_test_…) or, in a browser, a short-lived token. */
  apiKey: string;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Another fetch (a proxy, a test double, an instrumented one); default the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** Per call: cancel it, or give it its own timeout. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * A write's Idempotency-Key (1–255 visible ASCII characters, e.g. a UUID): the service runs the write once
   * and answers a repeat with the first answer, so the write is retried like a read (503, 504, network errors,
   * and a 409 while the first attempt still runs).
   */
  idempotencyKey?: string;
}

export interface ResponseMeta {
  request_id: string;
  latency_ms: number;
  total?: number;
  limit?: number;
  offset?: number;
  has_more?: boolean;
}

export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | undefined | null;

export interface RequestSpec {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Sending it twice changes nothing (reads, searches): it may be retried after 503, 504 or a network error. */
  idempotent: boolean;
}

const encode = encodeURIComponent;

/** `tag_id=a&tag_id=b` for arrays, as the service reads repeated parameters. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) parts.push(`${encode(key)}=${encode(String(v))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

const retryAfterOf = (res: Response) => {
  const value = Number(res.headers.get("retry-after"));
  return Number.isFinite(value) && res.headers.has("retry-after") ? value : undefined;
};

/** The service's error envelope, or, for an answer without one (a proxy's, the HTTP server's own), a code by status. */
async function errorOf(res: Response): Promise<MemoryServiceError> {
  const requestId = res.headers.get("x-request-id") ?? undefined;
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: { code: string; message: string; details?: never } };
    if (body.error?.code)
      return new MemoryServiceError(
        res.status,
        body.error.code,
        body.error.message,
        body.error.details,
        requestId,
        retryAfterOf(res),
      );
  } catch {}
  const code: ErrorCode | string =
    res.status === 413 || res.status === 431
      ? "VALIDATION_ERROR"
      : res.status >= 500
        ? "SERVICE_UNAVAILABLE"
        : `HTTP_${res.status}`;
  return new MemoryServiceError(res.status, code, text.slice(0, 200) || res.statusText, undefined, requestId);
}

/** One signal for one attempt: the caller's, and the attempt's own timeout. */
function attemptSignal(timeoutMs: number, outer?: AbortSignal): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new MemoryServiceError(0, "NETWORK_ERROR", `No answer within ${timeoutMs} ms`, undefined, undefined),
      ),
    timeoutMs,
  );
  const onAbort = () => controller.abort(outer!.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/** The transport every method uses: auth, JSON, the envelope, typed errors, timeouts and retries. */
export function createTransport(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, "");
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function attempt(spec: RequestSpec, call: CallOptions): Promise<Response> {
    const { signal, done } = attemptSignal(call.timeoutMs ?? options.timeoutMs ?? 30_000, call.signal);
    try {
      return await doFetch(`${base}${spec.path}${queryString(spec.query)}`, {
        method: spec.method,
        headers: {
          ...options.headers,
          Authorization: `Bearer ${options.apiKey}`,
          Accept: "application/json",
          ...(spec.body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(call.idempotencyKey === undefined ? {} : { "Idempotency-Key": call.idempotencyKey }),
        },
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal,
      });
    } catch (err) {
      if (call.signal?.aborted) throw new AbortError("The call was aborted", { cause: call.signal.reason });
      if (signal.reason instanceof MemoryServiceError) throw signal.reason;
      throw new MemoryServiceError(
        0,
        "NETWORK_ERROR",
        `Could not reach the service: ${String(err)}`,
        undefined,
        undefined,
      );
    } finally {
      done();
    }
  }

  return async function request<T>(
    spec: RequestSpec,
    call: CallOptions = {},
  ): Promise<{ data: T; meta: ResponseMeta }> {
    for (let tries = 0; ; tries++) {
      let error: MemoryServiceError;
      try {
        const res = await attempt(spec, call);
        if (res.ok) return (await res.json()) as { data: T; meta: ResponseMeta };
        error = await errorOf(res);
      } catch (err) {
        if (!(err instanceof MemoryServiceError) || err.code !== "NETWORK_ERROR") throw err;
        error = err;
      }
      const keyed = call.idempotencyKey !== undefined;
      const reason = retryReason(error.status === 0 ? "network" : error.status, spec.idempotent || keyed, keyed);
      if (!reason || tries >= policy.retries) throw error;
      await sleep(retryDelayMs(policy, reason, tries + 1, error.retryAfter), call.signal).catch((cause) => {
        throw new AbortError("The call was aborted", { cause });
      });
    }
  };
}

export type Transport = ReturnType<typeof createTransport>;
