/** When and how long to wait before sending a call again. */
export interface RetryPolicy {
  /** Attempts after the first; 0 turns retries off. Default 3. */
  retries: number;
  /** First backoff for 503/504/network errors, doubled per attempt with full jitter. Default 250 ms. */
  baseDelayMs: number;
  /** No single wait is longer, whatever Retry-After says. Default 30 s. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 30_000 };

/** Why a call may be sent again; anything else is answered to the caller as it is. */
export type RetryReason = "rate_limited" | "unavailable";

/**
 * 429 is retried for every call: the service refused it before doing anything. 503, 504 and network
 * errors are retried only for calls that change nothing when repeated (reads and searches, and writes
 * carrying an Idempotency-Key): a write whose fate is unknown is never sent twice without one. A 409 is
 * retried for a keyed write only: the first attempt with its key still runs.
 */
export function retryReason(status: number | "network", idempotent: boolean, keyed = false): RetryReason | null {
  if (status === 429) return "rate_limited";
  if ((status === 503 || status === 504 || status === "network") && idempotent) return "unavailable";
  if (status === 409 && keyed) return "unavailable";
  return null;
}

/** The wait before attempt `attempt` (1 = the first retry). */
export function retryDelayMs(
  policy: RetryPolicy,
  reason: RetryReason,
  attempt: number,
  retryAfterS: number | undefined,
  random: () => number = Math.random,
): number {
  if (reason === "rate_limited" && retryAfterS !== undefined && retryAfterS >= 0)
    return Math.min(policy.maxDelayMs, retryAfterS * 1000);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** Resolves after `ms`, or rejects at once when the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
