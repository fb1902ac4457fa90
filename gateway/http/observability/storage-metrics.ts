import { Gauge, type Registry } from "prom-client";
import { getLargestSpaces, type StorageRanking } from "../../../services/contract/usage";
import type { Bus } from "../../../services/kit/bus";

/** The ranking is asked for at most once per this many ms (it walks every space's counters). */
const FRESH_MS = 15_000;
/** A scrape does not wait longer than this; the gauges then keep their last values. */
const TIMEOUT_MS = 2000;

/**
 * What the `top` tenant environments storing the most bytes hold, read at scrape time from the memories service:
 * `tenant_storage_bytes` and `tenant_storage_memories`, labelled `tenant` and `environment`. Only the top ones are
 * series, so the labels stay bounded however many tenants there are; a tenant that leaves the top loses its series.
 * Operators alert on a tenant near its quota (docs/operations.md).
 */
export function registerTenantStorage(registry: Registry, bus: Bus, top: number) {
  let last: { at: number; ranking: Promise<StorageRanking> } | null = null;
  const read = () => {
    if (!last || Date.now() - last.at > FRESH_MS) {
      const ranking = bus.call(getLargestSpaces, { limit: top }, { requestId: "metrics" }, { timeoutMs: TIMEOUT_MS });
      last = { at: Date.now(), ranking };
      // A failed read is not kept: the next scrape asks again.
      ranking.catch(() => {
        if (last?.ranking === ranking) last = null;
      });
    }
    return last.ranking;
  };
  const gauge = (name: string, help: string, field: "bytes" | "memories") =>
    new Gauge({
      name,
      help,
      labelNames: ["tenant", "environment"],
      registers: [registry],
      async collect() {
        const ranking = await read().catch(() => null);
        if (!ranking) return;
        this.reset();
        for (const s of ranking.spaces) this.set({ tenant: s.tenant, environment: s.environment }, s[field]);
      },
    });
  gauge("tenant_storage_bytes", "Bytes of content and metadata a tenant environment stores (top N)", "bytes");
  gauge("tenant_storage_memories", "Memories a tenant environment stores (top N by bytes)", "memories");
}
