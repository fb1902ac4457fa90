import { describe, expect, test } from "bun:test";
import { JITTER, nextRetryAt, parseDuration, parseSchedule } from "./schedule";

describe("schedule", () => {
  test("durations in ms, s, m, h and d", () => {
    expect(["250ms", "5s", "1.5m", "2h", "3d", "5", "s", "-1s"].map(parseDuration)).toEqual([
      250,
      5000,
      90_000,
      7_200_000,
      259_200_000,
      null,
      null,
      null,
    ]);
  });

  test("the default schedule spans about 21 hours over 7 retries; a bad one throws", () => {
    const waits = parseSchedule("5s,1m,5m,30m,2h,6h,12h");
    expect(waits.length).toBe(7);
    expect(waits.reduce((a, b) => a + b, 0) / 3_600_000).toBeCloseTo(20.6, 1);
    expect(() => parseSchedule("5s,,1m")).toThrow();
    expect(() => parseSchedule("0s")).toThrow();
  });

  test("each retry waits its step ±20 %; after the last step there is none", () => {
    const schedule = [1000, 60_000];
    expect(nextRetryAt(schedule, 1, 0, 0)).toBe(1000 * (1 - JITTER));
    expect(nextRetryAt(schedule, 1, 0, 0.5)).toBe(1000);
    expect(nextRetryAt(schedule, 2, 100, 0.999_999)).toBeCloseTo(100 + 60_000 * (1 + JITTER), -1);
    expect(nextRetryAt(schedule, 3, 0, 0.5)).toBeNull();
  });
});
