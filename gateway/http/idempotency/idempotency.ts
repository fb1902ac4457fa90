import type { Caller } from "../../../services/contract/op";
import { ServiceError } from "../../../services/contract/errors";
import { defineLibrary, type RedisClient } from "../../../services/kit/redis-functions";
import { errorFields, type Logger } from "../../../services/kit/log";
import { isStorageFull } from "../../../services/kit/connect";
import { globLiteral, unlinkMatching } from "../../../services/kit/redis-scan";
import { createCoalescer } from "../../../services/kit/coalesce";
import { bytesResponse } from "../envelope";
import { doneValue, type Held, readHeld, runningValue } from "./held";

/**
 * `Idempotency-Key` on POST, PATCH and DELETE (REST, and GraphQL mutations): the first request with a key runs
 * and its answer is kept; a retry with the key and the same request gets that answer again, byte for byte, with
 * `Idempotent-Replayed: true`. Keys are per API key, in the Redis of the key's tenant (its hash tag).
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

/** One entry of a batch: a claim (the value that claims the key), or a kept answer (the claim's value, the answer). */
type Entry = { key: string; claim: string; answer?: Buffer };

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
  const keyOf = (caller: Caller, key: string) =>
    `idem:{${caller.tenant}:${caller.env}}:${caller.keyId}:${Bun.CryptoHasher.hash("sha256", key, "hex")}`;
  // Claims and kept answers of one tenant environment (one slot) go to Redis together while one call is under way.
  const batches = createCoalescer<Entry, Held | number>(async (_slot, batch) => {
    const args: (string | number | Buffer)[] = [IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS];
    for (const e of batch) args.push(...(e.answer ? ["keep", e.claim, e.answer] : ["claim", e.claim, ""]));
    return (await call(
      "batch",
      batch.map((e) => e.key),
      args,
    )) as (Held | number)[];
  });
  const slotOf = (caller: Caller) => `${caller.tenant}:${caller.env}`;

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
    async claim(
      caller: Caller,
      key: string,
      fingerprint: string,
      requestId: string,
      headers: Record<string, string>,
    ): Promise<Claim> {
      const redisKey = keyOf(caller, key);
      const claim = runningValue(fingerprint, crypto.randomUUID());
      let reply: Held;
      try {
        reply = (await batches.submit(slotOf(caller), { key: redisKey, claim })) as Held;
      } catch (err) {
        if (err instanceof ServiceError) throw err;
        // The write it guards would be refused too.
        if (isStorageFull(err))
          throw new ServiceError("STORAGE_FULL", "Storage is full: the write was refused and nothing was changed");
        log.error("idempotency key not claimed", { request_id: requestId, ...errorFields(err) });
        throw new ServiceError("SERVICE_UNAVAILABLE", "Idempotency keys cannot be checked now, retry shortly");
      }
      if (reply !== null) {
        const held = readHeld(reply);
        if (held.fingerprint !== fingerprint) throw reused();
        if (!held.done) throw running();
        const { "x-request-id": original, ...stored } = held.headers;
        return {
          replay: bytesResponse(new TextEncoder().encode(held.body), held.status, {
            ...stored,
            ...headers,
            "X-Request-Id": requestId,
            "Idempotent-Replayed": "true",
            ...(original ? { "Original-Request": original } : {}),
          }),
        };
      }
      return {
        async finish(res, ran) {
          const bytes = new Uint8Array(await res.arrayBuffer());
          const sent = Object.fromEntries(res.headers);
          delete sent["content-length"];
          const out = bytesResponse(bytes, res.status, sent);
          try {
            if (!ran) await call("release", [redisKey], [claim]);
            else {
              const kept: Record<string, string> = { "x-request-id": requestId };
              for (const name of KEPT_HEADERS) {
                const value = res.headers.get(name);
                if (value !== null) kept[name] = value;
              }
              const answer = doneValue(fingerprint, res.status, kept, bytes);
              await batches.submit(slotOf(caller), { key: redisKey, claim, answer });
            }
          } catch (err) {
            // The answer stands; the key frees itself when its lease ends.
            log.error("idempotent answer not kept", { request_id: requestId, ...errorFields(err) });
          }
          return out;
        },
      };
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
