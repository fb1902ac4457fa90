import { describe, expect, test } from "bun:test";
import { createLocalWindows } from "./rate-limit-fallback";

const clock = (start = 1_000_000) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

describe("local windows while Redis cannot decide", () => {
  test("each replica allows the key's per-minute limit divided by the replica count", () => {
    const c = clock();
    const local = createLocalWindows({ maxMs: 60_000, replicas: 3 }, c.now);
    const allowed = Array.from({ length: 12 }, () => local.decide("k", 30)!.allowed).filter(Boolean).length;
    expect(allowed).toBe(10);
    expect(local.decide("other", 30)!.allowed).toBe(true); // per key
  });

  test("the window slides: a minute after the first request, capacity comes back", () => {
    const c = clock();
    const local = createLocalWindows({ maxMs: 600_000, replicas: 1 }, c.now);
    expect(local.decide("k", 2)!.allowed).toBe(true);
    c.advance(30_000);
    expect(local.decide("k", 2)!.allowed).toBe(true);
    const refused = local.decide("k", 2)!;
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 30 });
    c.advance(30_001);
    expect(local.decide("k", 2)!.allowed).toBe(true);
  });

  test("a limit smaller than the replica count still allows one per replica", () => {
    const local = createLocalWindows({ maxMs: 60_000, replicas: 10 }, clock().now);
    expect([local.decide("k", 3)!.allowed, local.decide("k", 3)!.allowed]).toEqual([true, false]);
  });

  test("after maxMs without Redis it fails closed; Redis answering resets everything", () => {
    const c = clock();
    const local = createLocalWindows({ maxMs: 5_000, replicas: 1 }, c.now);
    expect(local.decide("k", 100)).not.toBeNull();
    c.advance(4_999);
    expect(local.decide("k", 100)).not.toBeNull();
    c.advance(1);
    expect(local.decide("k", 100)).toBeNull();
    local.recovered();
    expect(local.failing()).toBe(false);
    expect(local.decide("k", 100)).not.toBeNull(); // a new outage starts a new stretch
  });

  test("maxMs 0 fails closed at once", () => {
    expect(createLocalWindows({ maxMs: 0, replicas: 1 }).decide("k", 100)).toBeNull();
  });
});
