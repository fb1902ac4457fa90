import { validationError } from "../../../services/contract/errors";

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

/** What makes two requests the same one: method, route and input (a body or query, path params included). */
export const fingerprintOf = (route: string, input: unknown): string =>
  Bun.CryptoHasher.hash("sha256", `${route}\n${JSON.stringify(input)}`, "hex");

/** An Idempotency-Key on an operation whose answer holds a secret (Operation.secret): refused, as it is never kept. */
export const secretNotKept = () =>
  validationError(
    IDEMPOTENCY_HEADER.toLowerCase(),
    "unsupported",
    `${IDEMPOTENCY_HEADER} is not accepted here: the answer holds a secret, which is never stored`,
  );
