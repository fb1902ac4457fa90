import { describe, expect, test } from "bun:test";
import { ServiceError } from "../../../services/contract/errors";
import type { Restriction } from "../../../services/contract/op";
import { fingerprintOf, idempotencyKeyOf, idempotencyRedisKey, principalOf } from "./key";

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

describe("whose Idempotency-Key", () => {
  const key = { tenant: "acme", env: "live" as const, keyId: "k1" };
  const token = (id: string, restrict: Restriction | null) => ({ ...key, token: { id, restrict } });
  const user = (u: string) => ({ metadata: { user_id: u, plan: "a" } });

  test("a key's own namespace; each token of it one of its own, by its id and restriction", () => {
    const names = [
      idempotencyRedisKey(key, "K"),
      idempotencyRedisKey(token("t1", user("u_1")), "K"),
      idempotencyRedisKey(token("t2", user("u_1")), "K"),
      idempotencyRedisKey(token("t1", user("u_2")), "K"),
      idempotencyRedisKey(token("t1", null), "K"),
      idempotencyRedisKey({ ...key, keyId: "k2" }, "K"),
    ];
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name.startsWith("idem:{acme:live}:")).toBe(true);
    expect(idempotencyRedisKey(key, "K")).toBe(`idem:{acme:live}:k1:${Bun.CryptoHasher.hash("sha256", "K", "hex")}`);
  });

  test("the same token and key give the same name, whatever the order of its restriction's fields", () => {
    const reordered = { metadata: { plan: "a", user_id: "u_1" } };
    expect(idempotencyRedisKey(token("t1", reordered), "K")).toBe(idempotencyRedisKey(token("t1", user("u_1")), "K"));
    expect(idempotencyRedisKey(token("t1", null), "K")).not.toBe(idempotencyRedisKey(token("t1", null), "L"));
    expect(principalOf(token("t1", null))).toStartWith("k1:tok:t1:");
  });
});
