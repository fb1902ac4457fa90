import { createHash, randomBytes } from "node:crypto";

/** 24 random bytes are exactly 32 base64url characters: `svc_<env>_<32 chars>`. */
export const generateSecret = (env: "live" | "test") => `svc_${env}_${randomBytes(24).toString("base64url")}`;

/**
 * Keys carry 192 random bits, so a plain SHA-256 cannot be brute-forced; lookups go by this hash
 * and the secret itself is never stored or sent over NATS.
 */
export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** A recognisable, non-secret prefix such as `svc_live_Ab3d`. */
export const prefixOf = (secret: string) => secret.slice(0, 13);
