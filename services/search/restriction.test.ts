import { describe, expect, test } from "bun:test";
import { restrictFilters } from "./restriction";

describe("a restriction as search filters", () => {
  test("no restriction leaves the filters; metadata is added, a conflicting value matches nothing", () => {
    expect(restrictFilters({ tier: "long" }, null)).toEqual({ tier: "long" });
    expect(restrictFilters({ metadata: { topic: "tea" } }, { metadata: { user_id: "u_1" } })).toEqual({
      metadata: { topic: "tea", user_id: "u_1" },
    });
    expect(restrictFilters({ metadata: { user_id: "u_2" } }, { metadata: { user_id: "u_1" } })).toBeNull();
    expect(restrictFilters({ metadata: { user_id: "u_1" } }, { metadata: { user_id: "u_1" } })).not.toBeNull();
  });

  test("restricted tags filter (any) when the request names none; otherwise the memories service decides", () => {
    expect(restrictFilters({}, { tag_ids: ["a", "b"] })).toEqual({ metadata: {}, tags: ["a", "b"], tags_match: "any" });
    expect(restrictFilters({ tags: ["c"], tags_match: "all" }, { tag_ids: ["a"] })).toEqual({
      metadata: {},
      tags: ["c"],
      tags_match: "all",
    });
  });
});
