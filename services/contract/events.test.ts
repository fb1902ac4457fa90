import { expect, test } from "bun:test";
import { memoryEventsOf } from "./events";
import { memoryEventFixture } from "./event.fixture";

const event = (id: string) => memoryEventFixture(id);
const bytes = (v: unknown) => new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));

test("a message carries one event, or an array of them in order", () => {
  expect(memoryEventsOf(bytes(event("a")))).toEqual([event("a")]);
  expect(memoryEventsOf(bytes([event("a"), event("b")]))).toEqual([event("a"), event("b")]);
});

test("anything else is refused, so a consumer drops it instead of applying a half-read message", () => {
  for (const bad of ["", "not json", "null", "7", '"x"', "[1]", "[{}]", JSON.stringify([event("a"), null])])
    expect(() => memoryEventsOf(bytes(bad))).toThrow();
});
