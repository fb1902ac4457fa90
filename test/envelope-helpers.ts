import { expect } from "bun:test";
import type { ApiResponse } from "./api";

/** Checks of the REST error envelope, shared by the black-box tests of every area. */

/** The error in full (status, code, message, details), and a request id in `meta`. */
export function expectError(
  res: ApiResponse,
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
) {
  expect({
    status: res.status,
    code: res.body?.error?.code,
    message: res.body?.error?.message,
    details: res.body?.error?.details,
  }).toEqual({
    status,
    code,
    message,
    details,
  });
  expect(typeof res.body.meta.request_id).toBe("string");
}

/** The envelope's shape for a status and code: a message, and `meta.request_id` equal to X-Request-Id. */
export function expectEnvelopeError(res: ApiResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.meta.request_id).toBe(res.headers.get("x-request-id")!);
}
