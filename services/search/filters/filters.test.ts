import { describe, expect, test } from "bun:test";
import { hasFilters, literal, suffixOf, toFilterSpec, toVsimFilter } from "./filters";
import { canonicalJson } from "../../kit/canonical-json";
import { metadataToken } from "./metadata";

const T1 = "11111111-1111-4111-8111-111111111111";
const T2 = "22222222-2222-4222-8222-222222222222";

describe("filters", () => {
  test("no filter is no expression", () => {
    const spec = toFilterSpec({ tags: [] });
    expect(hasFilters(spec)).toBe(false);
    expect(toVsimFilter(spec)).toBeNull();
  });

  test("fields become ANDed groups; tags any = one OR group, all = one group each", () => {
    const any = toFilterSpec({ tier: "short", tags: [T1, T2, T1], content_type: "fact" });
    expect(any.groups.map((g) => g.map(suffixOf))).toEqual([["tier:short"], ["ct:fact"], [`tag:${T1}`, `tag:${T2}`]]);
    expect(toVsimFilter(any)).toBe(`.tier == "short" and .ct == "fact" and ("${T1}" in .tags or "${T2}" in .tags)`);
    const all = toFilterSpec({ tags: [T1, T2], tags_match: "all" });
    expect(toVsimFilter(all)).toBe(`"${T1}" in .tags and "${T2}" in .tags`);
  });

  test("parent, entity, nature, the created_at range [after, before) and metadata", () => {
    const spec = toFilterSpec({
      memory_nature: "semantic",
      parent_memory_id: T1,
      entity_id: T2,
      created_after: "2024-01-01T00:00:00.000Z",
      created_before: "2024-02-01T00:00:00Z",
      metadata: { source: "chat" },
    });
    const token = metadataToken("source", "chat");
    expect(toVsimFilter(spec)).toBe(
      `.nat == "semantic" and .parent == "${T1}" and "${T2}" in .ents and "${token}" in .meta and ` +
        ".ca >= 1704067200000 and .ca < 1706745600000",
    );
  });

  test("metadata tokens compare JSON values exactly, whatever the key order", () => {
    expect(metadataToken("k", { a: 1, b: [1, { c: 2 }] })).toBe(metadataToken("k", { b: [1, { c: 2 }], a: 1 }));
    expect(metadataToken("k", 1)).not.toBe(metadataToken("k", "1"));
    expect(metadataToken("k", null)).not.toBe(metadataToken("k", "null"));
    expect(metadataToken("a", "b\u0000c")).not.toBe(metadataToken("a\u0000b", "c"));
    expect(metadataToken("k", "v")).toMatch(/^[0-9a-f]{20}$/);
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });

  test("nothing but safe literals can reach a FILTER expression", () => {
    expect(literal("short")).toBe('"short"');
    expect(() => literal('x" or 1 or "')).toThrow();
    expect(() => literal("")).toThrow();
  });
});
