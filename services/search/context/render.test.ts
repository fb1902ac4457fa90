import { expect, test } from "bun:test";
import { memoryFixture } from "../../contract/memory.fixture";
import { render, type Piece } from "./render";

const piece = (over: Parameters<typeof memoryFixture>[0], role: Piece["role"] = "neighbor"): Piece => ({
  memory: memoryFixture(over),
  role,
  score: role === "match" ? 0.5 : null,
  thread: "t",
});

test("a thread's lines are in the order and with the dates its memories happened (occurred_at)", () => {
  const created = "2026-01-01T00:00:00.000Z";
  const pieces = [
    piece({ id: "b", content: "second", occurred_at: "2023-05-08T13:56:00.000Z", created_at: created }, "match"),
    piece({
      id: "c",
      content: "tie, created later",
      occurred_at: "2023-05-08T13:56:00.000Z",
      created_at: "2026-01-02T00:00:00.000Z",
    }),
    piece({ id: "a", content: "first", occurred_at: "1969-07-20T20:17:00.000Z", created_at: created }),
  ];
  const { text, ordered } = render(pieces, "text");
  expect(ordered.map((p) => p.memory.id)).toEqual(["a", "b", "c"]);
  expect(text).toBe(
    [
      "--- Thread 1 ---",
      "[1969-07-20 20:17 UTC] first",
      "[2023-05-08 13:56 UTC] second",
      "[2023-05-08 13:56 UTC] tie, created later",
    ].join("\n"),
  );
  expect(render(pieces, "markdown").text).toContain("- **1969-07-20 20:17 UTC** first");
});
