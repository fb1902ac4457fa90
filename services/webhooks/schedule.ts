/**
 * Durations as operators write them (`5s`, `1m`, `30m`, `2h`, `3d`, `250ms`), and the retry schedule:
 * the wait before each retry, in order. A delivery is attempted once, then once after each wait; when the
 * schedule is spent it has failed.
 */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** `"90s"` → 90000; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text.trim());
  return m ? Math.round(Number(m[1]) * UNITS[m[2]!]!) : null;
}

/** `"5s,1m,5m"` → [5000, 60000, 300000]; throws on anything else (config is checked at start). */
export function parseSchedule(text: string): number[] {
  const waits = text.split(",").map((part) => parseDuration(part));
  if (waits.length === 0 || waits.some((w) => w === null || w <= 0))
    throw new Error(`not a retry schedule (durations separated by commas, e.g. 5s,1m,5m): ${text}`);
  return waits as number[];
}

/** Spread of each wait: ±20 %, so endpoints that failed together do not all retry in the same instant. */
export const JITTER = 0.2;

/**
 * When the retry after failed attempt number `attempt` (1 = the first attempt) is due, or null when the
 * schedule is spent. `random` is in [0, 1).
 */
export function nextRetryAt(schedule: readonly number[], attempt: number, now: number, random: number): number | null {
  const wait = schedule[attempt - 1];
  if (wait === undefined) return null;
  return now + Math.round(wait * (1 - JITTER + 2 * JITTER * random));
}
