import type { TSchema } from "@sinclair/typebox";
import { validationError } from "../../../services/contract/errors";
import type { Caller, Operation } from "../../../services/contract/op";
import { canonicalJson } from "../../../services/kit/canonical-json";

/** The Idempotency-Key header as a request carries it: its rules, and what makes two requests the same. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Visible ASCII: UUIDs, ULIDs and the like, nothing a log or a proxy could mangle. */
const KEY_RE = /^[\x21-\x7e]+$/;

/** The request's Idempotency-Key (null when absent), checked; a malformed one is a 400. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  const field = IDEMPOTENCY_HEADER.toLowerCase();
  if (key.length === 0) throw validationError(field, "min_length", `${IDEMPOTENCY_HEADER} must not be empty`);
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    const message = `${IDEMPOTENCY_HEADER} must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`;
    throw validationError(field, "max_length", message, { max: IDEMPOTENCY_KEY_MAX_LENGTH });
  }
  if (!KEY_RE.test(key))
    throw validationError(field, "format", `${IDEMPOTENCY_HEADER} must be visible ASCII characters (no spaces)`);
  return key;
}

const sha256 = (text: string) => Bun.CryptoHasher.hash("sha256", text, "hex");

/** JSON with every object's keys sorted: one text for one value, however its keys were ordered. */
/**
 * Whose kept answers a request may meet: an API key's id, or for a browser token its key's id, its own id (each
 * minted token has a new one) and a digest of its restriction. A kept answer holds what its principal could see,
 * so it is replayed to that principal only: never to another token of the same key, nor to the key itself.
 */
export function principalOf(caller: Pick<Caller, "keyId" | "token">): string {
  if (!caller.token) return caller.keyId;
  return `${caller.keyId}:tok:${caller.token.id}:${sha256(canonicalJson(caller.token.restrict)).slice(0, 16)}`;
}

/**
 * The Redis key of a request's Idempotency-Key, in its tenant environment's hash tag: the one name of it, for the
 * gateway's claims and kept answers and for a write that claims its key itself (Operation.claimsIdempotencyKey).
 */
export const idempotencyRedisKey = (caller: Pick<Caller, "tenant" | "env" | "keyId" | "token">, key: string) =>
  `idem:{${caller.tenant}:${caller.env}}:${principalOf(caller)}:${sha256(key)}`;

/** What makes two requests the same one: method, route and input (a body or query, path params included). */
export const fingerprintOf = (route: string, input: unknown): string =>
  Bun.CryptoHasher.hash("sha256", `${route}\n${JSON.stringify(input)}`, "hex");

/**
 * Why an operation refuses an Idempotency-Key, as the 400 to answer, or null when it takes one: its answer holds a
 * secret, which is never stored; or it is an erase, which deletes every kept answer of its tenant environment
 * (its own included) and needs none, as sent again it goes on from where it was.
 */
export function keyRefusal(op: Pick<Operation<TSchema, TSchema>, "secret" | "erasesKeptAnswers">) {
  const refused = (why: string) =>
    validationError(
      IDEMPOTENCY_HEADER.toLowerCase(),
      "unsupported",
      `${IDEMPOTENCY_HEADER} is not accepted here: ${why}`,
    );
  if (op.secret) return refused("the answer holds a secret, which is never stored");
  if (op.erasesKeptAnswers)
    return refused(
      "an erase deletes every kept answer of its tenant environment, and is safe to send again without one",
    );
  return null;
}
