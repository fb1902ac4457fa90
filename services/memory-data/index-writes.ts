import type { Static } from "@sinclair/typebox";
import { ServiceError } from "../contract/errors";
import { indexMemories, indexWaitMs } from "../contract/search-index";
import type { Bus, CallContext } from "../kit/bus";
import { errorFields, throttledWarning, type Logger } from "../kit/log";

/**
 * After a call finds no search replica to answer (503), writes skip it for this long: each would pay
 * a NATS round trip and a refusal for nothing (a third of a create's CPU in the memories service),
 * and the events index them as soon as a replica is back. A slow replica (504) is not skipped.
 */
export const INDEX_SKIP_AFTER_UNAVAILABLE_MS = 250;

/**
 * The synchronous `search.index` call of the change publisher (publisher.ts), made after a committed
 * write so it is searchable when the write returns. A failure never fails the write — the same change
 * goes out as an event and converges the index — it is logged, once per interval during an outage.
 * Resolves whether the index took the change.
 */
export function createIndexWriter(bus: Bus, now: () => number = () => performance.now()) {
  const warnIndexMissed = throttledWarning("search index not updated now; events will converge it");
  let skipUntil = 0;
  return async function index(
    input: Static<typeof indexMemories.input>,
    on: CallContext,
    log: Logger,
  ): Promise<boolean> {
    if (now() < skipUntil) return false;
    try {
      await bus.call(indexMemories, input, on, { timeoutMs: indexWaitMs(input.upserts.length) });
      return true;
    } catch (err) {
      if (err instanceof ServiceError && err.code === "SERVICE_UNAVAILABLE")
        skipUntil = now() + INDEX_SKIP_AFTER_UNAVAILABLE_MS;
      warnIndexMissed(log, () => errorFields(err));
      return false;
    }
  };
}

export type IndexWriter = ReturnType<typeof createIndexWriter>;
