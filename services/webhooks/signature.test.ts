import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { generateSecret, SECRET_PREFIX, signedHeaders } from "./signature";

/** Signatures checked by the reference implementation, the `standardwebhooks` package. */
describe("signature", () => {
  const body = JSON.stringify({ id: "evt_1", type: "ping" });

  test("a fresh secret is whsec_ + 32 random bytes, and the headers verify with it", () => {
    const secret = generateSecret();
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(Buffer.from(secret.slice(SECRET_PREFIX.length), "base64").length).toBe(32);
    expect(secret).not.toBe(generateSecret());
    const headers = signedHeaders([secret], "evt_1", Date.now(), body);
    expect(headers["webhook-id"]).toBe("evt_1");
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  test("during a rotation both secrets sign: a receiver with either one verifies", () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const headers = signedHeaders([current, previous], "evt_2", Date.now(), body);
    expect(headers["webhook-signature"].split(" ").length).toBe(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow("No matching signature");
  });

  test("a changed body, id or timestamp does not verify", () => {
    const secret = generateSecret();
    const headers = signedHeaders([secret], "evt_3", Date.now(), body);
    const hook = new Webhook(secret);
    expect(() => hook.verify(body.replace("ping", "pong"), headers)).toThrow();
    expect(() => hook.verify(body, { ...headers, "webhook-id": "evt_4" })).toThrow();
    const ts = String(Number(headers["webhook-timestamp"]) - 1);
    expect(() => hook.verify(body, { ...headers, "webhook-timestamp": ts })).toThrow();
  });
});
