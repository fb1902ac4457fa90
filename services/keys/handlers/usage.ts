import { getUsage, type StorageUsage, type UsageReport } from "../../contract/usage";
import { validationError } from "../../contract/errors";
import { bind, requireCaller, type Handler, type HandlerContext } from "../../kit/handler";
import type { KeyStore } from "../store";

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type Totals = { requests: number; errors: number; rate_limited: number };
const zero = (): Totals => ({ requests: 0, errors: 0, rate_limited: 0 });

/** Adds one counter field ("<key>|<route>|<class>") to totals: 429s are rate-limited, other 4xx/5xx errors. */
function add(t: Totals, statusClass: string, n: number) {
  t.requests += n;
  if (statusClass === "429") t.rate_limited += n;
  else if (statusClass === "4xx" || statusClass === "5xx") t.errors += n;
}

/** What the caller's tenant environment stores (the memories service keeps it), asked as the caller. */
export type StorageOf = (ctx: HandlerContext) => Promise<StorageUsage>;

export function usageHandler(
  store: KeyStore,
  storageOf: StorageOf,
  now: () => Date = () => new Date(),
): Handler<typeof getUsage> {
  return async (input, ctx) => {
    const caller = requireCaller(ctx);
    const to = input.to ?? dayOf(now().getTime());
    const from = input.from ?? dayOf(Date.parse(to) - 29 * DAY_MS);
    const fromMs = Date.parse(from);
    const toMs = Date.parse(to);
    if (fromMs > toMs) throw validationError("from", "range", "from must not be after to");
    if ((toMs - fromMs) / DAY_MS + 1 > MAX_DAYS)
      throw validationError("from", "range", `A report covers at most ${MAX_DAYS} days`);
    const days: string[] = [];
    for (let ms = fromMs; ms <= toMs; ms += DAY_MS) days.push(dayOf(ms));
    const [hashes, storage] = await Promise.all([store.usageDays(caller.tenant, days), storageOf(ctx)]);

    const totals = zero();
    const byDay = new Map<string, Totals>();
    const byEndpoint = new Map<string, Totals>();
    const byKey = new Map<string, Totals>();
    hashes.forEach((fields, i) => {
      const day = days[i]!;
      for (const [field, value] of Object.entries(fields)) {
        const [keyId, route, statusClass] = field.split("|") as [string, string, string];
        if (input.key_id && keyId !== input.key_id) continue;
        const n = Number(value);
        add(totals, statusClass, n);
        for (const [map, k] of [
          [byDay, day],
          [byEndpoint, route],
          [byKey, keyId],
        ] as const) {
          let t = map.get(k);
          if (!t) map.set(k, (t = zero()));
          add(t, statusClass, n);
        }
      }
    });
    const report: UsageReport = {
      from,
      to,
      key_id: input.key_id ?? null,
      totals,
      by_day: [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, t]) => ({ day, ...t })),
      by_endpoint: [...byEndpoint]
        .sort(([, a], [, b]) => b.requests - a.requests)
        .map(([endpoint, t]) => ({ endpoint, ...t })),
      by_key: [...byKey].sort(([, a], [, b]) => b.requests - a.requests).map(([key_id, t]) => ({ key_id, ...t })),
      storage,
    };
    return report;
  };
}

export const usageBindings = (store: KeyStore, storageOf: StorageOf) => [
  bind(getUsage, usageHandler(store, storageOf)),
];
