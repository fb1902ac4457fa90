import { expect, test } from "bun:test";
import { compareRows, sortRefs, toTag } from "./record";

test("toTag maps absent color/description to null and ms to ISO", () => {
  expect(toTag("i", { name: "n", created_at: "0", updated_at: "1" }, 3)).toEqual({
    id: "i",
    name: "n",
    color: null,
    description: null,
    memory_count: 3,
    created_at: "1970-01-01T00:00:00.000Z",
    updated_at: "1970-01-01T00:00:00.001Z",
  });
});

test("ties of count and created_at fall back to the name, ascending, whatever the order", () => {
  const rows = [
    { id: "1", lname: "b", created: 1, count: 2 },
    { id: "2", lname: "a", created: 1, count: 2 },
    { id: "3", lname: "c", created: 0, count: 5 },
  ];
  expect([...rows].sort(compareRows("memory_count", "desc")).map((r) => r.lname)).toEqual(["c", "a", "b"]);
  expect([...rows].sort(compareRows("created_at", "desc")).map((r) => r.lname)).toEqual(["a", "b", "c"]);
  expect([...rows].sort(compareRows("name", "desc")).map((r) => r.lname)).toEqual(["c", "b", "a"]);
});

test("sortRefs sorts case-insensitively", () => {
  expect(
    sortRefs([
      { id: "1", name: "b", color: null },
      { id: "2", name: "A", color: null },
    ]).map((r) => r.name),
  ).toEqual(["A", "b"]);
});
