import { describe, expect, test } from "bun:test";
import { camel, knownId, snake, toInput } from "./args";
import { ServiceError } from "../../services/contract/errors";

describe("toInput: GraphQL arguments → contract input", () => {
  test("top-level names to snake_case; input and filter objects spread in", () => {
    expect(toInput({ input: { content: "c", contentType: "text", parentMemoryId: null } })).toEqual({
      content: "c",
      content_type: "text",
      parent_memory_id: null,
    });
    expect(toInput({ filter: { memoryNature: "episodic", tagIds: ["a"] }, limit: 5, order: "asc" })).toEqual({
      memory_nature: "episodic",
      tag_id: ["a"],
      limit: 5,
      order: "asc",
    });
  });

  test("metadata keeps its keys; DateTime values become ISO strings; undefined is dropped; extra wins", () => {
    const at = new Date("2025-01-02T03:04:05.678Z");
    expect(
      toInput({ input: { metadata: { camelCase: { innerKey: 1 } }, expiresAt: at, tier: undefined } }, { id: "x" }),
    ).toEqual({
      metadata: { camelCase: { innerKey: 1 } },
      expires_at: "2025-01-02T03:04:05.678Z",
      id: "x",
    });
    expect(toInput({ memoryId: "m", tagIds: ["t"] }, { memory_id: "override" })).toEqual({
      memory_id: "override",
      tag_ids: ["t"],
    });
  });

  test("null means 'not given' for arguments and filters, but clears a field in an input", () => {
    expect(toInput({ filter: null, keyId: null, limit: 5 })).toEqual({ limit: 5 });
    expect(toInput({ filter: { tier: null, root: true } })).toEqual({ root: true });
    expect(toInput({ input: { color: null, name: "n" } })).toEqual({ color: null, name: "n" });
  });

  test("snake and camel", () => {
    expect(snake("rateLimited")).toBe("rate_limited");
    expect(snake("id")).toBe("id");
    expect(camel("parent_memory_id")).toBe("parentMemoryId");
  });

  test("knownId: a malformed id is NOT_FOUND, as in REST paths", () => {
    expect(knownId("00000000-0000-4000-8000-000000000000", "Memory")).toBe("00000000-0000-4000-8000-000000000000");
    expect(() => knownId("nope", "Tag")).toThrow(new ServiceError("NOT_FOUND", "Tag not found"));
  });
});
