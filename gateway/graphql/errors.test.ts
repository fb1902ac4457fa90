import { describe, expect, test } from "bun:test";
import { GraphQLError } from "graphql";
import { ServiceError } from "../../services/contract/errors";
import type { Logger } from "../../services/kit/log";
import { finishError, maskError } from "./errors";

const logged: Record<string, unknown>[] = [];
const log: Logger = {
  debug() {},
  info() {},
  warn() {},
  error: (msg, fields) => void logged.push({ msg, ...fields }),
  child: () => log,
};
const mask = maskError(log);
const located = (original: Error) =>
  new GraphQLError(original.message, { path: ["memory", "tags"], originalError: original });

describe("maskError", () => {
  test("a ServiceError keeps its code, message and details, and loses its cause", () => {
    const err = mask(
      located(new ServiceError("VALIDATION_ERROR", "name is required", { field: "name", constraint: "required" })),
    ) as GraphQLError;
    expect(err.toJSON()).toEqual({
      message: "name is required",
      path: ["memory", "tags"],
      extensions: { code: "VALIDATION_ERROR", details: { field: "name", constraint: "required" } },
    });
    expect(err.originalError).toBeUndefined();
  });

  test("anything else is masked as INTERNAL_ERROR", () => {
    const err = mask(located(new TypeError("cannot read x of undefined at /srv/secret.ts"))) as GraphQLError;
    expect(err.toJSON()).toEqual({
      message: "An unexpected error occurred",
      path: ["memory", "tags"],
      extensions: { code: "INTERNAL_ERROR" },
    });
    expect(logged.at(-1)).toMatchObject({
      msg: "unexpected graphql error",
      path: "memory.tags",
      error: "cannot read x of undefined at /srv/secret.ts",
    }); // the cause: in the log only
    expect((mask(new Error("raw")) as GraphQLError).extensions).toEqual({ code: "INTERNAL_ERROR" });
    // An execution-time GraphQLError of graphql itself (a bad value for a non-null field) is a bug too.
    expect(
      (
        mask(
          new GraphQLError("Cannot return null for non-nullable field Memory.content.", {
            path: ["memory", "content"],
          }),
        ) as GraphQLError
      ).message,
    ).toBe("An unexpected error occurred");
  });

  test("request errors (no path) pass unchanged", () => {
    const request = new GraphQLError('Cannot query field "x" on type "Query".');
    expect(mask(request)).toBe(request);
  });
});

describe("finishError", () => {
  test("adds the request id; a request error becomes VALIDATION_ERROR with details", () => {
    const e = finishError(new GraphQLError('Cannot query field "x" on type "Query".'), "req-1");
    expect(e.extensions).toEqual({
      code: "VALIDATION_ERROR",
      details: { field: "query", constraint: "schema" },
      request_id: "req-1",
    });
    const coded = finishError(
      new GraphQLError("Tag not found", { path: ["tag"], extensions: { code: "NOT_FOUND" } }),
      "req-2",
    );
    expect(coded.extensions).toEqual({ code: "NOT_FOUND", request_id: "req-2" });
  });

  test("limits refusals carry their constraint and bound", () => {
    const e = finishError(
      new GraphQLError("Query depth limit of 10 exceeded, found 12.", {
        extensions: { constraint: "max_depth", limit: 10 },
      }),
      "r",
    );
    expect(e.message).toBe("Query depth limit of 10 exceeded, found 12.");
    expect(e.extensions).toEqual({
      code: "VALIDATION_ERROR",
      details: { field: "query", constraint: "max_depth", max: 10 },
      request_id: "r",
    });
  });

  test("does not change the error it was given (yoga caches validation errors per document)", () => {
    const original = new GraphQLError("Syntax Error: Unexpected <EOF>.");
    finishError(original, "a");
    expect(original.extensions).toEqual({});
  });
});
