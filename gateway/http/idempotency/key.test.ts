import { describe, expect, test } from "bun:test";
import { ServiceError } from "../../../services/contract/errors";
import { fingerprintOf, idempotencyKeyOf } from "./key";

const withKey = (key?: string) =>
  new Request("http://x/v1/memories", { method: "POST", headers: key === undefined ? {} : { "Idempotency-Key": key } });

const refusal = (key: string) => {
  try {
    idempotencyKeyOf(withKey(key));
  } catch (err) {
    return (err as ServiceError).details;
  }
  return null;
};

describe("Idempotency-Key", () => {
  test("absent is null; 1 to 255 visible ASCII characters pass as sent", () => {
    expect(idempotencyKeyOf(withKey())).toBeNull();
    for (const key of ["a", "k".repeat(255), "0b8f-…".slice(0, 5), "!~{}/:=+"])
      expect(idempotencyKeyOf(withKey(key))).toBe(key);
  });

  test("too long, spaces, controls and non-ASCII are refused with details", () => {
    expect(refusal("k".repeat(256))).toEqual({ field: "idempotency-key", constraint: "max_length", max: 255 });
    for (const bad of ["a b", "tab\there", "café"]) {
      expect(refusal(bad)).toEqual({ field: "idempotency-key", constraint: "format" });
    }
  });

  test("the fingerprint tells requests apart by route and input, not by anything else", () => {
    const a = fingerprintOf("POST /memories", { content: "x" });
    expect(fingerprintOf("POST /memories", { content: "x" })).toBe(a);
    expect(fingerprintOf("POST /memories", { content: "y" })).not.toBe(a);
    expect(fingerprintOf("POST /tags", { content: "x" })).not.toBe(a);
  });
});
