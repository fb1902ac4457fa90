import { describe, expect, test } from "bun:test";
import { DEFAULT_RETRY, retryDelayMs, retryReason } from "./retry.ts";

describe("retryReason", () => {
  test("429 is retried for every call; it was refused before anything ran", () => {
    expect(retryReason(429, false)).toBe("rate_limited");
    expect(retryReason(429, true)).toBe("rate_limited");
  });
  test("503, 504 and network errors only for idempotent calls", () => {
    for (const status of [503, 504, "network"] as const) {
      expect(retryReason(status, true)).toBe("unavailable");
      expect(retryReason(status, false)).toBeNull();
    }
  });
  test("a write with an Idempotency-Key is retried like a read, and after a 409 while its first attempt runs", () => {
    for (const status of [503, 504, "network", 409] as const)
      expect(retryReason(status, true, true)).toBe("unavailable");
    expect(retryReason(409, true)).toBeNull();
    expect(retryReason(422, true, true)).toBeNull();
  });
  test("anything else is answered as it is", () => {
    for (const status of [400, 401, 403, 404, 500, 502]) expect(retryReason(status, true)).toBeNull();
  });
});

describe("retryDelayMs", () => {
  test("429 waits Retry-After, capped at maxDelayMs", () => {
    expect(retryDelayMs(DEFAULT_RETRY, "rate_limited", 1, 3)).toBe(3000);
    expect(retryDelayMs({ ...DEFAULT_RETRY, maxDelayMs: 1000 }, "rate_limited", 1, 3)).toBe(1000);
  });
  test("backoff doubles per attempt with full jitter", () => {
    const top = (attempt: number) => retryDelayMs(DEFAULT_RETRY, "unavailable", attempt, undefined, () => 1);
    expect([1, 2, 3, 4].map(top)).toEqual([250, 500, 1000, 2000]);
    expect(retryDelayMs(DEFAULT_RETRY, "unavailable", 3, undefined, () => 0)).toBe(0);
    expect(retryDelayMs(DEFAULT_RETRY, "unavailable", 30, undefined, () => 1)).toBe(DEFAULT_RETRY.maxDelayMs);
  });
  test("a 429 without Retry-After backs off like the rest", () => {
    expect(retryDelayMs(DEFAULT_RETRY, "rate_limited", 2, undefined, () => 1)).toBe(500);
  });
});
