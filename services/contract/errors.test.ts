import { describe, expect, test } from "bun:test";
import {
  ERROR_TABLE,
  graphqlCodeOf,
  httpStatusOf,
  isErrorCode,
  ServiceError,
  toServiceError,
  type ErrorCode,
} from "./errors";

describe("the one error table", () => {
  const expected: Record<ErrorCode, number> = {
    VALIDATION_ERROR: 400,
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    QUOTA_EXCEEDED: 403,
    NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    NOT_ACCEPTABLE: 406,
    IDEMPOTENCY_IN_FLIGHT: 409,
    IDEMPOTENCY_KEY_REUSED: 422,
    RATE_LIMITED: 429,
    INTERNAL_ERROR: 500,
    SERVICE_UNAVAILABLE: 503,
    TIMEOUT: 504,
    STORAGE_FULL: 507,
  };
  test("has exactly the spec's codes plus the transport ones", () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual(Object.keys(expected).sort());
  });
  test.each(Object.entries(expected))("%s → HTTP %d and GraphQL code %s", (code, status) => {
    expect(httpStatusOf(code as ErrorCode)).toBe(status);
    expect(graphqlCodeOf(code as ErrorCode)).toBe(code);
  });
  test("unknown errors are masked as INTERNAL_ERROR without their message", () => {
    const masked = toServiceError(new Error("connection string redis://secret@host"));
    expect(masked.code).toBe("INTERNAL_ERROR");
    expect(masked.message).not.toContain("secret");
  });
  test("an error body round-trips; an unknown code becomes INTERNAL_ERROR", () => {
    const e = new ServiceError("VALIDATION_ERROR", "bad", { field: "x", constraint: "required" });
    expect(ServiceError.fromBody(e.toBody())).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "bad",
      details: { field: "x", constraint: "required" },
    });
    expect(ServiceError.fromBody({ code: "WAT" as ErrorCode, message: "m" }).code).toBe("INTERNAL_ERROR");
    expect(isErrorCode("NOT_FOUND")).toBe(true);
    expect(isErrorCode("nope")).toBe(false);
    for (const inherited of ["constructor", "__proto__", "toString"]) {
      expect(isErrorCode(inherited)).toBe(false);
      expect(ServiceError.fromBody({ code: inherited as ErrorCode, message: "m" }).code).toBe("INTERNAL_ERROR");
    }
  });
  test("a domain error carries no stack trace; other errors still do", () => {
    const e = new ServiceError("NOT_FOUND", "Memory not found");
    expect(e).toBeInstanceOf(Error);
    expect(e.stack ?? "").not.toContain("errors.test");
    expect(new Error("bug").stack).toContain("errors.test");
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
  });
});
