/**
 * What an Idempotency-Key holds in Redis (batch.lua): one string, `R\n<fingerprint>\n<token>` while its request
 * runs, then `D\n<fingerprint>\n<status>\n<headers JSON>\n<body>` once its answer is kept. The claim's value is
 * compared whole when the answer is kept or the key released, so the token makes it this request's own.
 */

/** What a claim met: the value the key held, or null when the claim took the key. */
export type ClaimReply = string | null;

/** The value of a claimed key: its request runs. */
export const runningValue = (fingerprint: string, token: string) => `R\n${fingerprint}\n${token}`;

const decoder = new TextDecoder();

/**
 * The value of a key whose answer is kept: the body last, as it may hold any character. A string, not bytes:
 * the Redis client writes a command of strings without first copying every argument into one buffer.
 */
export const doneValue = (fingerprint: string, status: number, headers: Record<string, string>, body: Uint8Array) =>
  `D\n${fingerprint}\n${status}\n${JSON.stringify(headers)}\n${decoder.decode(body)}`;

export type HeldAnswer =
  | { done: false; fingerprint: string }
  | { done: true; fingerprint: string; status: number; headers: Record<string, string>; body: string };

/** A held value read back: its fingerprint and, once done, the kept answer. */
export function readHeld(value: string): HeldAnswer {
  const lineEnd = (from: number) => value.indexOf("\n", from);
  const fingerprintEnd = lineEnd(2);
  const fingerprint = value.slice(2, fingerprintEnd);
  if (value[0] !== "D") return { done: false, fingerprint };
  const statusEnd = lineEnd(fingerprintEnd + 1);
  const headersEnd = lineEnd(statusEnd + 1);
  return {
    done: true,
    fingerprint,
    status: Number(value.slice(fingerprintEnd + 1, statusEnd)),
    headers: JSON.parse(value.slice(statusEnd + 1, headersEnd)) as Record<string, string>,
    body: value.slice(headersEnd + 1),
  };
}
