import type { Caller } from "../../../services/contract/op";

/** Who a request is on behalf of, once its credential is verified: what every later step of the frame reads. */
export interface Identity {
  caller: Caller;
  /** The key's name and the first characters of its secret, for people to recognise it (the dashboard). */
  label: { name: string; prefix: string };
  limits: { perMinute: number; perDay: number };
  /** When the secret presented stops working (ms since epoch); null = never. Open streams end then. */
  expiresAt: number | null;
  /** SHA-256 of the secret presented (a token's minting secret): how a key change names the secrets it concerns. */
  hash: string;
  /** A previous secret of a rotated key, still in its grace. */
  replaced?: boolean;
  /** Set for a browser token: its own window (requests per minute; null: none) and its allowed origins. */
  token?: { id: string; perMinute: number | null; origins: string[] };
}
