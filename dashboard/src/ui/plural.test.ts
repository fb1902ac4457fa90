import { describe, expect, test } from "bun:test";
import { isOne, noun, plural, pluralOf } from "./plural";

describe("plural", () => {
  test("one takes the singular; zero, many and fractions the plural", () => {
    expect(plural(1, "tag")).toBe("1 tag");
    expect(plural(0, "tag")).toBe("0 tags");
    expect(plural(2, "event")).toBe("2 events");
    expect(plural(1, "error")).toBe("1 error");
    expect(plural(1.5, "token")).toBe("1.5 tokens");
  });

  test("a consonant + y → -ies, a vowel + y → -s, a sibilant → -es", () => {
    expect(["memory", "entity", "reply", "delivery", "key", "day"].map(pluralOf)).toEqual([
      "memories",
      "entities",
      "replies",
      "deliveries",
      "keys",
      "days",
    ]);
    expect(pluralOf("match")).toBe("matches");
    expect(plural(3, "memory")).toBe("3 memories");
    expect(plural(1, "entity")).toBe("1 entity");
  });

  test("counts are grouped by thousands; an explicit plural wins", () => {
    expect(plural(1234, "request")).toBe("1,234 requests");
    expect(plural(2, "person", "people")).toBe("2 people");
    expect(noun(1, "memory")).toBe("memory");
    expect(noun(7, "memory")).toBe("memories");
    expect([0, 1, 2].map(isOne)).toEqual([false, true, false]);
  });
});
