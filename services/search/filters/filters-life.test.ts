import { describe, expect, test } from "bun:test";
import { hasFilters, toFilterSpec, toVsimFilter } from "./filters";

const MS_2024 = Date.parse("2024-01-01T00:00:00.000Z");
const MS_2025 = Date.parse("2025-01-01T00:00:00.000Z");

describe("filters over a memory's life", () => {
  test("occurred_at: [after, before) on the `oa` attribute", () => {
    const spec = toFilterSpec({ occurred_after: "2024-01-01T00:00:00Z", occurred_before: "2025-01-01T00:00:00Z" });
    expect(spec).toMatchObject({ groups: [], occurredAfter: MS_2024, occurredBefore: MS_2025 });
    expect(hasFilters(spec)).toBe(true);
    expect(toVsimFilter(spec)).toBe(`.oa >= ${MS_2024} and .oa < ${MS_2025}`);
  });

  test("as_of: occurred by then (at most the instant itself), and not superseded by then", () => {
    expect(toFilterSpec({ as_of: "2024-01-01T00:00:00Z" })).toMatchObject({
      occurredBefore: MS_2024 + 1,
      validAfter: MS_2024,
    });
    expect(toVsimFilter(toFilterSpec({ as_of: "2024-01-01T00:00:00Z" }))).toBe(
      `.oa < ${MS_2024 + 1} and .vto > ${MS_2024}`,
    );
    // With occurred_before too, the earlier bound holds.
    expect(toFilterSpec({ as_of: "2025-01-01T00:00:00Z", occurred_before: "2024-01-01T00:00:00Z" })).toMatchObject({
      occurredBefore: MS_2024,
      validAfter: MS_2025,
    });
    expect(toFilterSpec({ as_of: "2024-01-01T00:00:00Z", occurred_before: "2025-01-01T00:00:00Z" })).toMatchObject({
      occurredBefore: MS_2024 + 1,
    });
  });

  test("latest_only is the `latest` filter set; false is no filter", () => {
    const latest = toFilterSpec({ latest_only: true, tier: "short" });
    expect(toVsimFilter(latest)).toBe('.tier == "short" and .lt == "1"');
    expect(hasFilters(toFilterSpec({ latest_only: false }))).toBe(false);
  });
});
