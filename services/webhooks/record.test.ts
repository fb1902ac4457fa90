import { expect, test } from "bun:test";
import { signingSecrets, toDelivery, toWebhook } from "./record";
import { endpointFixture } from "./record.fixture";

const rec = endpointFixture({
  secret: "whsec_bmV3",
  previous_secret: "whsec_b2xk",
  previous_secret_expires: 1_000_000,
});

test("a rotated-out secret signs until its grace ends, then only the current one", () => {
  expect(signingSecrets(rec, 999_999)).toEqual(["whsec_bmV3", "whsec_b2xk"]);
  expect(signingSecrets(rec, 1_000_000)).toEqual(["whsec_bmV3"]);
  expect(toWebhook(rec, 999_999).previous_secret_expires_at).toBe(new Date(1_000_000).toISOString());
  expect(toWebhook(rec, 1_000_000).previous_secret_expires_at).toBeNull();
});

test("the API's endpoint never carries a secret", () => {
  expect(JSON.stringify(toWebhook(rec, 0))).not.toContain("whsec_");
});

test("attempts stored without `ok` read with it, from their error", () => {
  const at = new Date(0).toISOString();
  const stored = [
    { at, status_code: null, latency_ms: 0, error: "endpoint disabled", manual: false },
    { at, status_code: 204, latency_ms: 3, error: null, ok: true, manual: true },
  ];
  const delivery = toDelivery({ id: "d", status: "failed", attempts: JSON.stringify(stored), created_at: at });
  expect(delivery.attempts.map((a) => a.ok)).toEqual([false, true]);
});
