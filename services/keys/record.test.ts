import { describe, expect, test } from "bun:test";
import { hashesOf, secretEnd, type KeyRecord } from "./record";
import { keyRecordFixture } from "./record.fixture";

/** Which secrets a record holds, and until when each works. */
const record = (over: Partial<KeyRecord> = {}) => keyRecordFixture({ hash: "new", ...over });
const grace = (at: string) => ({ previous: { hash: "old", expires_at: at } });
const ms = Date.parse;

describe("secretEnd", () => {
  test("the current secret ends with the key", () => {
    expect(secretEnd(record(), "new")).toBeNull();
    expect(secretEnd(record({ expires_at: "2031-01-01T00:00:00Z" }), "new")).toBe(ms("2031-01-01T00:00:00Z"));
  });

  test("a previous secret ends with its grace, or with the key if that comes first", () => {
    expect(secretEnd(record(grace("2030-06-01T00:00:00Z")), "old")).toBe(ms("2030-06-01T00:00:00Z"));
    const sooner = record({ expires_at: "2030-02-01T00:00:00Z", ...grace("2030-06-01T00:00:00Z") });
    expect(secretEnd(sooner, "old")).toBe(ms("2030-02-01T00:00:00Z"));
  });

  test("a hash the record does not hold (a pointer a rotation left behind) is no secret of it", () => {
    expect(secretEnd(record(), "old")).toBeUndefined();
    expect(secretEnd(record({ previous: null }), "old")).toBeUndefined();
    expect(secretEnd(record(grace("2030-06-01T00:00:00Z")), "older")).toBeUndefined();
  });
});

test("hashesOf: the current secret's hash, then the previous one's while it is kept", () => {
  expect(hashesOf(record())).toEqual(["new"]);
  expect(hashesOf(record(grace("2030-06-01T00:00:00Z")))).toEqual(["new", "old"]);
});
