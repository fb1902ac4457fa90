import type { NatsConnection } from "nats";
import { USAGE_SUBJECT, type UsageRow } from "../../../services/contract/usage";
import { encodeJson } from "../../../services/kit/wire";
import type { Logger } from "../../../services/kit/log";
import type { Caller } from "../../../services/contract/op";

const statusClassOf = (status: number) => `${Math.floor(status / 100)}xx`;

// The UTC day, recomputed at most once a second (this runs on every request).
let dayCache = { until: 0, day: "" };
const today = () => {
  const now = Date.now();
  if (now >= dayCache.until) dayCache = { until: now + 1000, day: new Date(now).toISOString().slice(0, 10) };
  return dayCache.day;
};

/**
 * Counts requests in memory and publishes one aggregated batch to JetStream every interval,
 * so usage costs the hot path only a Map update.
 */
export function createUsageRecorder(nc: NatsConnection, log: Logger, intervalMs = 500) {
  let pending = new Map<string, UsageRow>();
  const js = nc.jetstream();

  const flush = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await js.publish(USAGE_SUBJECT, encodeJson([...batch.values()]));
    } catch (err) {
      log.warn("usage batch not published, kept for the next flush", {
        error: (err as Error).message,
        rows: batch.size,
      });
      // Merge back, bounded so an outage cannot grow memory without limit.
      if (pending.size < 50_000) for (const [k, row] of batch) merge(k, row);
    }
  };

  const merge = (k: string, row: UsageRow) => {
    const existing = pending.get(k);
    if (existing) {
      existing.count += row.count;
      existing.rateLimited += row.rateLimited;
    } else pending.set(k, row);
  };

  const timer = setInterval(() => void flush(), intervalMs);

  return {
    /** One request under the caller's key; a browser token's are told apart by their route (`… (token)`). */
    record(caller: Caller, requestRoute: string, status: number) {
      const { tenant, keyId } = caller;
      const route = caller.token ? `${requestRoute} (token)` : requestRoute;
      const day = today();
      const statusClass = statusClassOf(status);
      const k = `${tenant}\u0000${keyId}\u0000${day}\u0000${route}\u0000${statusClass}`;
      merge(k, {
        tenant,
        keyId,
        day,
        route,
        statusClass,
        count: status === 429 ? 0 : 1,
        rateLimited: status === 429 ? 1 : 0,
      });
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

export type UsageRecorder = ReturnType<typeof createUsageRecorder>;
