import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (standardwebhooks.com): the secret is `whsec_` + base64 of random bytes; each
 * signature is `v1,` + base64(HMAC-SHA256(secret bytes, "<webhook-id>.<webhook-timestamp>.<body>")), and
 * `webhook-signature` lists one per secret in use, space-separated, so a receiver that knows either
 * secret of a rotation verifies.
 */
export const SECRET_PREFIX = "whsec_";

export const generateSecret = () => SECRET_PREFIX + randomBytes(32).toString("base64");

export function sign(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampS}.${body}`).digest("base64")}`;
}

/** The three headers of one attempt; `secrets` are the ones in use now (current first). */
export function signedHeaders(secrets: readonly string[], id: string, now: number, body: string) {
  const timestamp = Math.floor(now / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => sign(s, id, timestamp, body)).join(" "),
  };
}
