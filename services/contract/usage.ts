import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { Enum, ENVIRONMENTS, Nullable } from "./common";

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

/** What the caller's tenant environment stores, against its quotas (services/memories/lua/quota.lua). */
export const StorageUsage = T.Object({
  memories: T.Integer({ description: "Memories stored (expired ones until the expiry purge takes them)." }),
  bytes: T.Integer({ description: "Bytes of their content and metadata (JSON text), as stored." }),
  limits: T.Object(
    { memories: Nullable(T.Integer()), bytes: Nullable(T.Integer()) },
    { description: "The quotas: the plan's, or the root key's override for the tenant; null = no limit." },
  ),
});
export type StorageUsage = Static<typeof StorageUsage>;

/** Internal (the keys service's usage report asks the memories service, with the caller's identity). */
export const getStorageUsage = op({
  subject: "storage.usage",
  idempotent: true,
  input: T.Object({}, { additionalProperties: false }),
  output: StorageUsage,
  summary: "Internal: what the caller's tenant environment stores, and its quotas",
});

export const StorageRanking = T.Object({
  spaces: T.Array(
    T.Object({ tenant: T.String(), environment: Enum(ENVIRONMENTS), memories: T.Integer(), bytes: T.Integer() }),
  ),
});
export type StorageRanking = Static<typeof StorageRanking>;

/** Internal (the gateway's /metrics): the tenant environments that store the most bytes. */
export const getLargestSpaces = op({
  subject: "storage.largest",
  idempotent: true,
  input: T.Object({ limit: T.Integer({ minimum: 1, maximum: 1000 }) }, { additionalProperties: false }),
  output: StorageRanking,
  summary: "Internal: the tenant environments storing the most bytes",
});

export const UsageReport = T.Object({
  from: Day,
  to: Day,
  key_id: T.Union([T.String(), T.Null()]),
  totals: Totals,
  by_day: T.Array(T.Composite([T.Object({ day: Day }), Totals])),
  by_endpoint: T.Array(T.Composite([T.Object({ endpoint: T.String() }), Totals])),
  by_key: T.Array(T.Composite([T.Object({ key_id: T.String() }), Totals])),
  storage: StorageUsage,
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
  summary: "Usage report: totals and breakdowns by day, endpoint and key; what the environment stores",
});
