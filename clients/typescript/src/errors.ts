import type { components } from "./generated/api.ts";

/**
 * The codes of the service's error table (from its OpenAPI document), and the client's own NETWORK_ERROR: no
 * answer from the service (the network failed, or the attempt's timeout passed).
 */
export type ErrorCode = components["schemas"]["Error"]["error"]["code"] | "NETWORK_ERROR";

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
