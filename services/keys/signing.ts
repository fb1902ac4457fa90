import { randomBytes } from "node:crypto";
import type { SigningSecret } from "../contract/tokens";

/**
 * The secrets browser tokens are signed with: the current one signs, the previous one still verifies the
 * tokens it signed. Rotating more often than a token's longest life (one day) would cut tokens short.
 */
export interface SigningSecrets {
  current: SigningSecret & { created_at: string };
  previous: SigningSecret | null;
}

export const newSigningSecret = (at: Date) => ({
  id: randomBytes(6).toString("base64url"),
  secret: randomBytes(32).toString("base64url"),
  created_at: at.toISOString(),
});

export const rotated = (s: SigningSecrets, at: Date): SigningSecrets => ({
  current: newSigningSecret(at),
  previous: { id: s.current.id, secret: s.current.secret },
});

/** What gateways verify with, the current secret first. */
export const verifyingSecrets = (s: SigningSecrets): SigningSecret[] =>
  [s.current, s.previous].filter((x) => x !== null).map(({ id, secret }) => ({ id, secret }));
