import { describe, expect, test } from "bun:test";
import { methodTable } from "./methods";

describe("methodTable", () => {
  const allowed = methodTable([
    { method: "GET", path: "/v1/tags" },
    { method: "POST", path: "/v1/tags" },
    { method: "GET", path: "/v1/tags/:id" },
    { method: "PATCH", path: "/v1/tags/:id" },
    { method: "DELETE", path: "/v1/tags/:id" },
    { method: "DELETE", path: "/v1/memories/:id/tags/:tagId" },
    { method: "GET", path: "/docs/*" },
    { method: "ALL", path: "/graphql" },
  ]);

  test("the methods of every route whose template matches, GET bringing HEAD, sorted", () => {
    expect(allowed("/v1/tags")).toEqual(["GET", "HEAD", "POST"]);
    expect(allowed("/v1/tags/")).toEqual(["GET", "HEAD", "POST"]);
    expect(allowed("/v1/tags/0b8f6c1e-5d0a-4f7e-9c39-1c5d7b0e2a11")).toEqual(["DELETE", "GET", "HEAD", "PATCH"]);
    expect(allowed("/v1/memories/m/tags/t")).toEqual(["DELETE"]);
    expect(allowed("/docs/json")).toEqual(["GET", "HEAD"]);
  });

  test("no match (or a route taking every method): no methods, so the answer stays 404", () => {
    expect(allowed("/v1/nope")).toEqual([]);
    expect(allowed("/v1/tags/a/b")).toEqual([]);
    expect(allowed("/v1")).toEqual([]);
    expect(allowed("/graphql")).toEqual([]);
    expect(allowed("/v1/memories/m/tags")).toEqual([]);
  });
});
