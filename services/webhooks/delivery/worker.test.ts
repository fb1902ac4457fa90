import { describe, expect, test } from "bun:test";
import { createLogger } from "../../kit/log";
import { endpointFixture } from "../record.fixture";
import type { ClaimedDelivery, WebhookStore } from "../store";
import { IDLE_POLL_MAX_MS, IDLE_POLL_MS, startDeliveryWorker } from "./worker";

/** A store whose 16 partitions never have anything due; it records when each claim came. */
function emptyStore() {
  const claims: number[] = [];
  const store = {
    deliveries: {
      partitions: Array.from({ length: 16 }, (_, p) => p),
      claim: async () => {
        claims.push(performance.now());
        return { claimed: [], nextDue: null };
      },
    },
  } as unknown as WebhookStore;
  return { store, claims };
}

const workerOn = (store: WebhookStore, over: Partial<Parameters<typeof startDeliveryWorker>[0]> = {}) =>
  startDeliveryWorker({
    store,
    send: async () => ({ ok: true, status_code: 200, latency_ms: 0, error: null }),
    schedule: [1000],
    disableAfterMs: 60_000,
    concurrency: 4,
    leaseMs: 10_000,
    log: createLogger({ service: "test" }, "error"),
    ...over,
  });

/**
 * A store holding one delivery in partition 5, due at once, whose endpoint fails: each settled retry is due again
 * at the time the worker gives; a claim never says when the next one is (`nextDue` null), as when it predates it.
 */
function failingDeliveryStore() {
  const endpoint = endpointFixture();
  const claimsOfIt: number[] = [];
  let dueAt: number | null = 0;
  const delivery = { id: "d1", webhook_id: endpoint.id, tenant: "t", env: "live", body: "{}", manual: false };
  let attempt = 0;
  const store = {
    deliveries: {
      partitions: Array.from({ length: 16 }, (_, p) => p),
      claim: async (p: number, at: number) => {
        if (p !== 5 || dueAt === null || dueAt > at) return { claimed: [], nextDue: null };
        claimsOfIt.push(performance.now());
        dueAt = null;
        attempt++;
        return { claimed: [{ ...delivery, attempt, trace: "", partition: 5, claim: "c" } as ClaimedDelivery] };
      },
      settle: async (_c: ClaimedDelivery, _a: unknown, _o: unknown, retryAt: number | null) => {
        dueAt = retryAt;
        return { due: retryAt };
      },
    },
    endpoints: { get: async () => endpoint, health: async () => false },
  } as unknown as WebhookStore;
  return { store, claimsOfIt };
}

describe("the delivery worker with nothing due", () => {
  test("backs its polls off from IDLE_POLL_MS to IDLE_POLL_MAX_MS, and a wake-up claims at once", async () => {
    const { store, claims } = emptyStore();
    const worker = workerOn(store);
    const started = performance.now();
    try {
      // Passes at 0, 0.5, 1.5 and 3.5 s (each over the 16 partitions), where a fixed 500 ms poll makes 8 by 3.6 s.
      await Bun.sleep(3600);
      const passes = claims.length / 16;
      expect(passes).toBeGreaterThanOrEqual(3);
      expect(passes).toBeLessThanOrEqual(4);
      const gaps = [16, 32, 48].map((i) => (claims[i] ?? Infinity) - claims[i - 1]!);
      expect(gaps[0]).toBeGreaterThanOrEqual(IDLE_POLL_MS - 50);
      expect(gaps[1]).toBeGreaterThanOrEqual(2 * IDLE_POLL_MS - 50);
      expect(IDLE_POLL_MAX_MS).toBe(4000);
      const before = claims.length;
      const wokenAt = performance.now();
      worker.wake([3]);
      await Bun.sleep(50);
      expect(claims.length).toBe(before + 1);
      expect(claims.at(-1)! - wokenAt).toBeLessThan(50);
    } finally {
      await worker.stop();
    }
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("the delivery worker with a retry settled", () => {
  test("claims it at its due time, though its idle polls have backed off past it", async () => {
    const { store, claimsOfIt } = failingDeliveryStore();
    // Idle passes after the first attempt come at +0.5, +1.5 and +3.5 s: a retry due at +2.2 s falls between two.
    const worker = workerOn(store, {
      send: async () => ({ ok: false, status_code: 500, latency_ms: 0, error: "HTTP 500" }),
      schedule: [2200, 60_000],
      random: () => 0.5,
    });
    try {
      await Bun.sleep(2600);
      expect(claimsOfIt.length).toBe(2);
      expect(claimsOfIt[1]! - claimsOfIt[0]!).toBeGreaterThanOrEqual(2200 - 5);
      expect(claimsOfIt[1]! - claimsOfIt[0]!).toBeLessThan(2200 + 250);
    } finally {
      await worker.stop();
    }
  });
});
