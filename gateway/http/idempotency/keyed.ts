import { ServiceError } from "../../../services/contract/errors";
import { neverRan } from "../../../services/kit/bus";
import type { KeyClaim } from "../../../services/kit/wire";
import { type Exchange, failed } from "../exchange/exchange";
import type { Claim } from "./idempotency";

/** A write sent with an Idempotency-Key, as its surface describes it. */
export interface KeyedWrite {
  key: string;
  /** What makes a retry the same request (key.ts `fingerprintOf`). */
  fingerprint: string;
  /** The write claims the key in its own step (Operation.claimsIdempotencyKey): no round trip before it. */
  claimsItself?: boolean;
  /** Whether an answer is kept; one that is not frees the key for a retry. Every answer is, unless said. */
  keeps?: (res: Response) => boolean;
}

/**
 * Runs a keyed write inside the exchange (REST writes, GraphQL mutations): the key claimed, or an earlier request's
 * answer replayed; then `run`, whose answer (an error thrown included, as the surface answers it) is kept for
 * retries. `run` gets the key's claim when the write takes it itself.
 */
export async function underIdempotencyKey(
  ex: Exchange,
  write: KeyedWrite,
  run: (keyClaim: KeyClaim | undefined) => Promise<Response>,
): Promise<Response> {
  const { deps, caller, requestId, headers } = ex;
  const keeps = write.keeps ?? (() => true);
  if (write.claimsItself) {
    const prepared = deps.idempotency.prepare(caller, write.key, write.fingerprint, requestId, headers);
    let res: Response;
    try {
      res = await run(prepared.keyClaim);
    } catch (err) {
      res = failed(ex, err);
      // The write refused or failed, so whether it claimed the key is for Redis to say: the key is claimed now
      // (or found this request's own), or it answers an earlier request's answer, 409 or 422.
      let claim: Claim;
      try {
        claim = await prepared.afterRefusal();
      } catch (claimErr) {
        return failed(ex, claimErr);
      }
      return "replay" in claim ? claim.replay : claim.finish(res, ranAfter(err) && keeps(res));
    }
    return prepared.claimed.finish(res, keeps(res));
  }
  const claim = await deps.idempotency.claim(caller, write.key, write.fingerprint, requestId, headers);
  if ("replay" in claim) return claim.replay;
  let res: Response;
  let ran: boolean;
  try {
    res = await run(undefined);
    ran = keeps(res);
  } catch (err) {
    res = failed(ex, err);
    ran = ranAfter(err) && keeps(res);
  }
  return claim.finish(res, ran);
}

/** Whether a write that threw may have changed something; one that did not is run again by a retry. */
const ranAfter = (err: unknown) =>
  !neverRan(err) &&
  !(err instanceof ServiceError && ["STORAGE_FULL", "RATE_LIMITED", "IDEMPOTENCY_IN_FLIGHT"].includes(err.code));
