import { describe, test } from "bun:test";
import { tenant, UNKNOWN_ID } from "../memories/memory-helpers";
import { expectError } from "../envelope-helpers";

/** POST /v1/search: every invalid request is refused with the field and constraint; the scope it needs. */

describe("POST /v1/search: validation", () => {
  const cases: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
    ["query missing", {}, "query is required", { field: "query", constraint: "required" }],
    ["query empty", { query: "" }, "query must not be empty", { field: "query", constraint: "required" }],
    ["query blank", { query: "   " }, "query must not be empty", { field: "query", constraint: "required" }],
    ["query not a string", { query: 5 }, "query must be string", { field: "query", constraint: "type" }],
    ["limit 0", { query: "x", limit: 0 }, "limit must be >= 1", { field: "limit", constraint: "minimum", min: 1 }],
    [
      "limit 101",
      { query: "x", limit: 101 },
      "limit must be <= 100",
      { field: "limit", constraint: "maximum", max: 100 },
    ],
    ["limit 2.5", { query: "x", limit: 2.5 }, "limit must be an integer", { field: "limit", constraint: "type" }],
    [
      "threshold < 0",
      { query: "x", threshold: -0.1 },
      "threshold must be >= 0",
      { field: "threshold", constraint: "minimum", min: 0 },
    ],
    [
      "threshold > 1",
      { query: "x", threshold: 1.5 },
      "threshold must be <= 1",
      { field: "threshold", constraint: "maximum", max: 1 },
    ],
    [
      "tier",
      { query: "x", tier: "huge" },
      "tier must be one of short, medium, long",
      { field: "tier", constraint: "enum", allowed: ["short", "medium", "long"] },
    ],
    [
      "tags not uuids",
      { query: "x", tags: ["nope"] },
      "tags.0 has an invalid format (expected uuid)",
      { field: "tags.0", constraint: "format" },
    ],
    ["tags not a list", { query: "x", tags: UNKNOWN_ID }, "tags must be array", { field: "tags", constraint: "type" }],
    [
      "tags_match",
      { query: "x", tags_match: "some" },
      "tags_match must be one of any, all",
      { field: "tags_match", constraint: "enum", allowed: ["any", "all"] },
    ],
    [
      "content_type",
      { query: "x", content_type: "blob" },
      "content_type must be one of text, conversation, document, event, fact",
      { field: "content_type", constraint: "enum", allowed: ["text", "conversation", "document", "event", "fact"] },
    ],
    [
      "memory_nature",
      { query: "x", memory_nature: "dreamy" },
      "memory_nature must be one of episodic, semantic",
      { field: "memory_nature", constraint: "enum", allowed: ["episodic", "semantic"] },
    ],
    [
      "parent_memory_id",
      { query: "x", parent_memory_id: "p1" },
      "parent_memory_id has an invalid format (expected uuid)",
      { field: "parent_memory_id", constraint: "format" },
    ],
    [
      "entity_id",
      { query: "x", entity_id: "e1" },
      "entity_id has an invalid format (expected uuid)",
      { field: "entity_id", constraint: "format" },
    ],
    [
      "created_after",
      { query: "x", created_after: "yesterday" },
      "created_after has an invalid format (expected date-time)",
      { field: "created_after", constraint: "format" },
    ],
    [
      "empty range",
      { query: "x", created_after: "2024-02-01T00:00:00Z", created_before: "2024-01-01T00:00:00Z" },
      "created_before must be later than created_after",
      { field: "created_before", constraint: "range" },
    ],
    [
      "metadata not an object",
      { query: "x", metadata: [1] },
      "metadata must be object",
      { field: "metadata", constraint: "type" },
    ],
    [
      "unknown field",
      { query: "x", sort: "score" },
      "sort is not an accepted field",
      { field: "sort", constraint: "unknown_field" },
    ],
  ];
  for (const [name, body, message, details] of cases) {
    test(name, async () => {
      const { api } = await tenant();
      expectError(await api.post("/v1/search", body), 400, "VALIDATION_ERROR", message, details);
    });
  }

  test("needs the search:read scope", async () => {
    const { api } = await tenant({ scopes: ["memories:read", "memories:write"] });
    expectError(await api.post("/v1/search", { query: "x" }), 403, "FORBIDDEN", "Missing required scope: search:read");
    expectError(await api.post("/v1/context", { query: "x" }), 403, "FORBIDDEN", "Missing required scope: search:read");
  });
});
