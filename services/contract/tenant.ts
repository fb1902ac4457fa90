import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Enum, ENVIRONMENTS, Nullable } from "./common";
import { TIERS } from "./memories";

/**
 * The settings of one tenant+environment (`GET/PATCH /v1/tenant`, scope `admin`): one resource that
 * grows a field per concern. Each environment has its own, as it has its own data: a test key never
 * changes live settings.
 */

/** A retention default: 1 day to 100 years. */
export const RETENTION_DAYS_MAX = 36_500;
const Days = T.Integer({ minimum: 1, maximum: RETENTION_DAYS_MAX });

export const Retention = T.Object({
  short: Nullable(Days),
  medium: Nullable(Days),
  long: Nullable(Days),
  cascade: T.Boolean({
    description: "When a memory expires, its descendants are purged with it (false: they become roots).",
  }),
});
export type Retention = Static<typeof Retention>;

/** A storage quota the root key sets: 0 = no limit; 1e12 at most (bytes of a tenant environment). */
export const QUOTA_MAX = 1_000_000_000_000;
const QuotaValue = T.Integer({ minimum: 0, maximum: QUOTA_MAX });

export const QuotaOverride = T.Object(
  { memories: Nullable(QuotaValue), bytes: Nullable(QuotaValue) },
  {
    description:
      "The root key's override of the plan's storage quotas: memories stored, and bytes of their content + " +
      "metadata. null = the plan's default; 0 = no limit.",
  },
);

export const TenantSettings = T.Object({
  tenant_id: T.String(),
  environment: Enum(ENVIRONMENTS),
  retention: T.Object(Retention.properties, {
    description:
      "Days a new memory of each tier lives when it is created without expires_at or ttl_seconds; null = forever.",
  }),
  quota: QuotaOverride,
  updated_at: Nullable(DateTime({ description: "null until the settings are first changed." })),
});
export type TenantSettings = Static<typeof TenantSettings>;

export const RetentionPatch = T.Object(
  {
    short: T.Optional(Nullable(Days)),
    medium: T.Optional(Nullable(Days)),
    long: T.Optional(Nullable(Days)),
    cascade: T.Optional(T.Boolean()),
  },
  { additionalProperties: false, description: "Only the fields sent change; null = no default for that tier." },
);
export type RetentionPatch = Static<typeof RetentionPatch>;

export const QuotaPatch = T.Object(
  { memories: T.Optional(Nullable(QuotaValue)), bytes: T.Optional(Nullable(QuotaValue)) },
  {
    additionalProperties: false,
    description: "Root key only. Only the fields sent change; null = back to the plan's default, 0 = no limit.",
  },
);
export type QuotaPatch = Static<typeof QuotaPatch>;

/** Root key only: the tenant and environment whose settings a call reads or changes (default: the caller's). */
const Target = {
  tenant_id: T.Optional(
    T.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_.-]+$", description: "Root key only." }),
  ),
  environment: T.Optional(Enum(ENVIRONMENTS, { description: "Root key only." })),
};

export const UpdateTenantInput = T.Object(
  { retention: T.Optional(RetentionPatch), quota: T.Optional(QuotaPatch), ...Target },
  { additionalProperties: false },
);
export type UpdateTenantInput = Static<typeof UpdateTenantInput>;

export type TenantTarget = { tenant_id?: string; environment?: (typeof ENVIRONMENTS)[number] };

export const getTenant = op({
  subject: "tenant.get",
  idempotent: true,
  input: T.Object(Target, { additionalProperties: false }),
  output: TenantSettings,
  scope: "admin",
  summary: "The settings of the caller's tenant and environment",
});

export const updateTenant = op({
  subject: "tenant.update",
  input: UpdateTenantInput,
  output: TenantSettings,
  scope: "admin",
  summary: "Change the tenant's settings (only the fields sent; retention applies to memories created later)",
});

/** The tiers a retention default exists for, in the order the API lists them. */
export const RETENTION_TIERS = TIERS;
