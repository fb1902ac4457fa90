/** The error codes the service answers with (its one error table). */
export type ErrorCode =
  | "VALIDATION_ERROR"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "NOT_ACCEPTABLE"
  | "RATE_LIMITED"
  | "INTERNAL_ERROR"
  | "SERVICE_UNAVAILABLE"
  | "TIMEOUT"
  /** No answer from the service: the network failed, or the client's own timeout or signal ended the call. */
  | "NETWORK_ERROR";

export interface ErrorDetails {
  field?: string;
  constraint?: string;
  [key: string]: unknown;
}

/** A refused or failed call: the service's code, message and details, and the request id to quote in support. */
export class MemoryServiceError extends Error {
  override readonly name = "MemoryServiceError";
  constructor(
    readonly status: number,
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details: ErrorDetails | undefined,
    readonly requestId: string | undefined,
    /** Seconds the service asked to wait (429), when it said. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** An error of the caller's own making: its AbortSignal fired. Never retried. */
export class AbortError extends Error {
  override readonly name = "AbortError";
}
