/**
 * The one error table: every domain error code, its HTTP status and its GraphQL `extensions.code`.
 * Services throw `ServiceError`; adapters map it through `httpStatusOf` / `graphqlCodeOf`.
 */
export const ERROR_TABLE = {
  VALIDATION_ERROR: { status: 400, retryable: false },
  UNAUTHORIZED: { status: 401, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  /** A write past the tenant environment's storage quota; details: {quota: "memories" | "bytes", limit, used}. */
  QUOTA_EXCEEDED: { status: 403, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  /** The path exists, not with this method: the answer's `Allow` header lists those it has. */
  METHOD_NOT_ALLOWED: { status: 405, retryable: false },
  NOT_ACCEPTABLE: { status: 406, retryable: false },
  /** A request with the same Idempotency-Key is still running: retry once it has answered. */
  IDEMPOTENCY_IN_FLIGHT: { status: 409, retryable: true },
  /** The Idempotency-Key was used with a different request (method, path or body). */
  IDEMPOTENCY_KEY_REUSED: { status: 422, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  INTERNAL_ERROR: { status: 500, retryable: true },
  SERVICE_UNAVAILABLE: { status: 503, retryable: true },
  TIMEOUT: { status: 504, retryable: true },
  /** Redis refused a write for memory (maxmemory reached): writes fail whole, reads go on. */
  STORAGE_FULL: { status: 507, retryable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

export interface ErrorDetails {
  field?: string;
  constraint?: string;
  [key: string]: unknown;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
}

/**
 * A domain error: an answer with one of the spec's codes (404, 400 with details, 503…), not a bug.
 * It carries no stack trace: capturing one costs more than the rest of a 404, and the code says
 * where it comes from. Unexpected errors (anything else thrown) keep theirs.
 */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetails;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.details = details;
    this.name = "ServiceError";
  }

  toBody(): ErrorBody {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }

  static fromBody(body: ErrorBody): ServiceError {
    const code = isErrorCode(body.code) ? body.code : "INTERNAL_ERROR";
    return new ServiceError(code, body.message, body.details);
  }
}

/** Own keys only: `"constructor" in ERROR_TABLE` is true, yet it is no code. */
export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === "string" && Object.hasOwn(ERROR_TABLE, code);

export const httpStatusOf = (code: ErrorCode): number => ERROR_TABLE[code].status;

/** GraphQL uses the REST codes verbatim, so clients handle one vocabulary. */
export const graphqlCodeOf = (code: ErrorCode): string => code;

/** Anything that is not a ServiceError becomes a masked INTERNAL_ERROR: internals never leak. */
export const toServiceError = (err: unknown): ServiceError =>
  err instanceof ServiceError ? err : new ServiceError("INTERNAL_ERROR", "An unexpected error occurred");

export const validationError = (field: string, constraint: string, message: string, extra?: Record<string, unknown>) =>
  new ServiceError("VALIDATION_ERROR", message, { field, constraint, ...extra });

export const notFound = (what: string) => new ServiceError("NOT_FOUND", `${what} not found`);
