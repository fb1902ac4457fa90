import { expect, test } from "bun:test";
import { signingSecrets, toWebhook } from "./record";
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
