import type { Caller } from "../../../services/contract/op";
import { ServiceError } from "../../../services/contract/errors";
import { defineLibrary, type RedisClient } from "../../../services/kit/redis-functions";
import { errorFields, type Logger } from "../../../services/kit/log";
import { isStorageFull } from "../../../services/kit/connect";
import { globLiteral, unlinkMatching } from "../../../services/kit/redis-scan";
import { createCoalescer } from "../../../services/kit/coalesce";
import { bytesResponse } from "../envelope/envelope";
import { doneValue, type ClaimReply, type HeldAnswer, readHeld, runningValue } from "./held";
import type { KeyClaim } from "../../../services/kit/wire";
import { idempotencyRedisKey } from "./key";

/**
 * `Idempotency-Key` on POST, PATCH and DELETE (REST, and GraphQL mutations): the first request with a key runs
 * and its answer is kept; a retry with the key and the same request gets that answer again, byte for byte, with
 * `Idempotent-Replayed: true`. Keys are per principal (an API key, or one browser token of it: key.ts), in the
 * Redis of the key's tenant (its hash tag).
 */
const idempotencyLibrary = await defineLibrary({
  name: "idempotency",
  dir: new URL("./", import.meta.url),
  functions: { batch: "write", release: "write" },
});

/** How long an answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a running request holds its key: longer than any request runs, so that a gateway that dies
 * mid-request frees the key for a retry once the lease ends.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** The answer's headers that are kept and replayed; the rest (rate limits, request id) are each request's own. */
const KEPT_HEADERS = ["content-type"];

/** A claimed key: its request runs, then `finish` keeps its answer (or frees the key when nothing ran). */
export interface Claimed {
  /** The answer as it goes out (its body was read to be kept). `ran`: false frees the key for a retry. */
  finish(res: Response, ran: boolean): Promise<Response>;
}

export type Claim = { replay: Response } | Claimed;

/**
 * The key of a write whose body streams (POST /v1/import), what makes it the same request known only once the body
 * has been read: claimed (`finish` takes the body's fingerprint), or holding an earlier request's kept answer.
 */
export type StreamedClaim =
  | { finish(res: Response, ran: boolean, fingerprint: string): Promise<Response> }
  | { kept(fingerprint: string): Response };

/** An Idempotency-Key handed to the write it guards (Idempotency.prepare). */
export interface Prepared {
  /** What the write gets (CallContext.keyClaim). */
  keyClaim: KeyClaim;
  /** Once the write has answered: the key is this request's, its answer is kept. */
  claimed: Claimed;
  /** Once the write has refused or failed: the key claimed now (or found this request's), or what it holds. */
  afterRefusal(): Promise<Claim>;
}

/** A request with an Idempotency-Key: whose, where its key lives, what makes it the same request. */
interface KeyedRequest {
  caller: Caller;
  redisKey: string;
  fingerprint: string;
  requestId: string;
  /** Its answer's own headers (rate limits), which a replay carries instead of the kept ones. */
  headers: Record<string, string>;
}

/** One entry of a batch: a claim (the value that claims the key), or a kept answer (the claim's value, the answer). */
type Entry = { key: string; claim: string; answer?: string };

const reused = () =>
  new ServiceError(
    "IDEMPOTENCY_KEY_REUSED",
    "This Idempotency-Key was used with a different request; use a new key for a new request",
    { field: "idempotency-key", constraint: "same_request" },
  );
const running = () =>
  new ServiceError(
    "IDEMPOTENCY_IN_FLIGHT",
    "A request with this Idempotency-Key is still running; retry once it has answered",
    { field: "idempotency-key", constraint: "in_flight" },
  );

export function createIdempotency(redis: RedisClient, log: Logger) {
  const call = idempotencyLibrary.on(redis);
  // Claims and kept answers of one tenant environment (one slot) go to Redis together while one call is under way.
  const batches = createCoalescer<Entry, ClaimReply | number>(async (_slot, batch) => {
    const args: (string | number)[] = [IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS];
    for (const e of batch) args.push(...(e.answer ? ["keep", e.claim, e.answer] : ["claim", e.claim, ""]));
    return (await call(
      "batch",
      batch.map((e) => e.key),
      args,
    )) as (ClaimReply | number)[];
  });
  const slotOf = (caller: Caller) => `${caller.tenant}:${caller.env}`;

  /** A request with a key, and the value that claims the key for it (its own: the token is new). */
  const keyed = (
    caller: Caller,
    key: string,
    fingerprint: string,
    requestId: string,
    headers: Record<string, string>,
  ) => ({
    request: {
      caller,
      redisKey: idempotencyRedisKey(caller, key),
      fingerprint,
      requestId,
      headers,
    } satisfies KeyedRequest,
    value: runningValue(fingerprint, crypto.randomUUID()),
  });

  /** Claims the key with `value`: null when it took the key (or held it already), else what the key holds. */
  async function submitClaim(request: KeyedRequest, value: string): Promise<ClaimReply> {
    let reply: ClaimReply;
    try {
      reply = (await batches.submit(slotOf(request.caller), { key: request.redisKey, claim: value })) as ClaimReply;
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      // The write it guards would be refused too.
      if (isStorageFull(err))
        throw new ServiceError("STORAGE_FULL", "Storage is full: the write was refused and nothing was changed");
      log.error("idempotency key not claimed", { request_id: request.requestId, ...errorFields(err) });
      throw new ServiceError("SERVICE_UNAVAILABLE", "Idempotency keys cannot be checked now, retry shortly");
    }
    return reply === value ? null : reply;
  }

  /** A kept answer, answered again to `request`: its own request id and rate-limit headers, marked replayed. */
  function replayOf(request: KeyedRequest, held: Extract<HeldAnswer, { done: true }>): Response {
    const { "x-request-id": original, ...stored } = held.headers;
    return bytesResponse(new TextEncoder().encode(held.body), held.status, {
      ...stored,
      ...request.headers,
      "X-Request-Id": request.requestId,
      "Idempotent-Replayed": "true",
      ...(original ? { "Original-Request": original } : {}),
    });
  }

  /** Claims the key with `value`; a key that already holds `value` is this request's own claim. */
  async function claimWith(request: KeyedRequest, value: string): Promise<Claim> {
    const reply = await submitClaim(request, value);
    if (reply === null) return claimedBy(request, value);
    const held = readHeld(reply);
    if (held.fingerprint !== request.fingerprint) throw reused();
    if (!held.done) throw running();
    return { replay: replayOf(request, held) };
  }

  /** A key claimed with `value`: `finish` keeps the request's answer, or frees the key when nothing ran. */
  function claimedBy(request: KeyedRequest, value: string): Claimed {
    const { caller, redisKey, fingerprint, requestId } = request;
    return {
      async finish(res, ran) {
        const bytes = new Uint8Array(await res.arrayBuffer());
        const sent = Object.fromEntries(res.headers);
        delete sent["content-length"];
        const out = bytesResponse(bytes, res.status, sent);
        // The answer stands whatever happens to the key: it frees itself when its lease ends.
        const notKept = (err: unknown) =>
          log.error("idempotent answer not kept", { request_id: requestId, ...errorFields(err) });
        if (!ran) {
          await call("release", [redisKey], [value]).catch(notKept);
          return out;
        }
        const kept: Record<string, string> = { "x-request-id": requestId };
        for (const name of KEPT_HEADERS) {
          const header = res.headers.get(name);
          if (header !== null) kept[name] = header;
        }
        // The answer goes out without waiting for Redis to keep it. The keep is queued ahead of every later claim
        // of this tenant environment through this gateway (one queue per slot, one connection), so a retry here
        // always finds it; a retry through another replica within that round trip is told the request runs.
        batches
          .submit(slotOf(caller), {
            key: redisKey,
            claim: value,
            answer: doneValue(fingerprint, res.status, kept, bytes),
          })
          .catch(notKept);
        return out;
      },
    };
  }

  return {
    /** Deletes every kept answer of a tenant environment (its erase): they hold what its memories said. */
    async erase(tenant: string, env: string): Promise<number> {
      let deleted = 0;
      for (;;) {
        const step = await unlinkMatching(redis, [`idem:{${globLiteral(tenant)}:${env}}:*`], 10_000);
        deleted += step.deleted;
        if (step.done) return deleted;
      }
    },

    /**
     * Claims `key` for this request, or answers an earlier request's answer (`replay`, with `headers` and this
     * request's id). Refuses IDEMPOTENCY_KEY_REUSED and IDEMPOTENCY_IN_FLIGHT; a Redis that cannot answer is a
     * 503, as the key's promise cannot be kept without it.
     */
    claim(
      caller: Caller,
      key: string,
      fingerprint: string,
      requestId: string,
      headers: Record<string, string>,
    ): Promise<Claim> {
      const { request, value } = keyed(caller, key, fingerprint, requestId, headers);
      return claimWith(request, value);
    },

    /**
     * Claims `key` for a write whose body streams, before its body is read: a key another request holds while it
     * runs is IDEMPOTENCY_IN_FLIGHT at once; a kept answer is answered (or IDEMPOTENCY_KEY_REUSED) once the body
     * has been read and its fingerprint is known, and so is a claimed key kept.
     */
    async claimStreamed(
      caller: Caller,
      key: string,
      requestId: string,
      headers: Record<string, string>,
    ): Promise<StreamedClaim> {
      // The claim's own fingerprint is unknown yet: another request meeting it is told it runs, or is another.
      const { request, value } = keyed(caller, key, "", requestId, headers);
      const reply = await submitClaim(request, value);
      if (reply === null)
        return { finish: (res, ran, fingerprint) => claimedBy({ ...request, fingerprint }, value).finish(res, ran) };
      const held = readHeld(reply);
      if (!held.done) throw running();
      return {
        kept(fingerprint) {
          if (fingerprint !== held.fingerprint) throw reused();
          return replayOf(request, held);
        },
      };
    },

    /**
     * The key handed to a write that claims it in its own step (Operation.claimsIdempotencyKey): no round trip
     * before the call. Once the write answers, `claimed` keeps its answer. Once it refuses or fails, it may not
     * have claimed the key: `afterRefusal` claims it then, or answers what the key holds (an earlier request's
     * answer, its 409 or 422), exactly as `claim` would have before the call.
     */
    prepare(
      caller: Caller,
      key: string,
      fingerprint: string,
      requestId: string,
      headers: Record<string, string>,
    ): Prepared {
      const { request, value } = keyed(caller, key, fingerprint, requestId, headers);
      return {
        keyClaim: { key: request.redisKey, value, leaseMs: IDEMPOTENCY_LEASE_MS },
        claimed: claimedBy(request, value),
        afterRefusal: () => claimWith(request, value),
      };
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
