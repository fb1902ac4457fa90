import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Enum, ENVIRONMENTS, Nullable } from "./common";
import { TIERS } from "./memories";
import { Origin } from "./tokens";

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
  cors: T.Object({
    allowed_origins: T.Array(T.String(), {
      description: "Browser origins that may call the API with a token that names no origins of its own.",
    }),
  }),
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

export const CorsPatch = T.Object(
  {
    allowed_origins: T.Optional(
      T.Array(Origin, {
        maxItems: 20,
        uniqueItems: true,
        description: "Replaces the whole list; [] allows no origin.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateTenantInput = T.Object(
  { retention: T.Optional(RetentionPatch), quota: T.Optional(QuotaPatch), cors: T.Optional(CorsPatch), ...Target },
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

/** Internal: the tenant's CORS allow-list, for gateways to check a browser token's requests against. */
export const tenantOrigins = op({
  subject: "tenant.origins",
  idempotent: true,
  input: T.Object({}),
  output: T.Object({ origins: T.Array(T.String()) }),
  summary: "Internal: the caller's tenant CORS allow-list",
});

/**
 * Internal: origins some tenant allows (`until_ms` null: no end), or some token names until it expires. A
 * preflight carries no credential, so it is answered for any such origin; the request itself is then
 * checked against its own token's origins or tenant's list.
 */
export const registerOrigins = op({
  subject: "tenant.origins.register",
  input: T.Object({ origins: T.Array(T.String()), until_ms: Nullable(T.Integer()) }),
  output: T.Object({}),
  summary: "Internal: remember origins a token or a tenant allows, for preflights",
});

export const knownOrigin = op({
  subject: "tenant.origins.known",
  idempotent: true,
  input: T.Object({ origin: T.String({ maxLength: 300 }) }),
  output: T.Object({ known: T.Boolean() }),
  summary: "Internal: whether some tenant or unexpired token allows the origin (a preflight's question)",
});
