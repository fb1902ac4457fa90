import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";

/** One aggregated row the gateway publishes in batches (off the hot path). */
export const UsageRow = T.Object({
  tenant: T.String(),
  keyId: T.String(),
  day: T.String(),
  route: T.String(),
  statusClass: T.String(),
  count: T.Integer(),
  rateLimited: T.Integer(),
});
export type UsageRow = Static<typeof UsageRow>;

/** JetStream subject of usage batches; the keys service aggregates them. */
export const USAGE_SUBJECT = "usage.batch";
export const USAGE_STREAM = "USAGE";

const Totals = T.Object({ requests: T.Integer(), errors: T.Integer(), rate_limited: T.Integer() });

const Day = T.String({ format: "date" });

export const UsageReport = T.Object({
  from: Day,
  to: Day,
  key_id: T.Union([T.String(), T.Null()]),
  totals: Totals,
  by_day: T.Array(T.Composite([T.Object({ day: Day }), Totals])),
  by_endpoint: T.Array(T.Composite([T.Object({ endpoint: T.String() }), Totals])),
  by_key: T.Array(T.Composite([T.Object({ key_id: T.String() }), Totals])),
});
export type UsageReport = Static<typeof UsageReport>;

export const getUsage = op({
  subject: "usage.report",
  idempotent: true,
  input: T.Object(
    {
      from: T.Optional(Day),
      to: T.Optional(Day),
      key_id: T.Optional(T.String({ minLength: 1, maxLength: 64 })),
    },
    { additionalProperties: false },
  ),
  output: UsageReport,
  scope: "admin",
  summary: "Usage report: totals and breakdowns by day, endpoint and key",
});
