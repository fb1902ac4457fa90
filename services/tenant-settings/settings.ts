import { hashTag, type Space } from "../kit/space";
import type { TenantSettings, UpdateTenantInput } from "../contract/tenant";
import { RETENTION_TIERS } from "../contract/tenant";
import { isoOfMs } from "../memory-data/memory-hash";

/**
 * The settings of one tenant+environment, stored as one hash `tenant:{tenant:env}:settings`, in the space's
 * hash tag: a memories function reads them in the same atomic step as the memory it writes (settings.lua).
 * A field per setting; a setting never set has no field.
 */
export const settingsKey = (s: Space) => `tenant:${hashTag(s)}:settings`;

/** The Lua the memories library reads the settings with (defined at its top). */
export const SETTINGS_LUA = new URL("./lua/settings.lua", import.meta.url);

export const FIELDS = {
  /** Days a new memory of that tier lives, when created without an expiry. */
  retention: (tier: (typeof RETENTION_TIERS)[number]) => `retention:${tier}`,
  /** "1": a memory's expiry purges its descendants too. */
  cascade: "retention:cascade",
  /** The root key's override of a storage quota (0 = no limit); read by the memories functions (settings.lua). */
  quota: (quota: "memories" | "bytes") => `quota:${quota}`,
  /** JSON array of the browser origins allowed to call with a token that names none (absent: none). */
  corsOrigins: "cors:origins",
  /** ms of the last change. */
  updatedAt: "updated_at",
} as const;

/** The API shape of a stored settings hash (empty: every default). */
export function settingsOf(space: Space, h: Record<string, string>): TenantSettings {
  const days = (tier: (typeof RETENTION_TIERS)[number]) => {
    const v = Number(h[FIELDS.retention(tier)]);
    return Number.isInteger(v) && v > 0 ? v : null;
  };
  return {
    tenant_id: space.tenant,
    environment: space.env,
    retention: { short: days("short"), medium: days("medium"), long: days("long"), cascade: h[FIELDS.cascade] === "1" },
    quota: { memories: quotaOverrideOf(h, "memories"), bytes: quotaOverrideOf(h, "bytes") },
    cors: { allowed_origins: originsOf(h) },
    updated_at: h[FIELDS.updatedAt] ? isoOfMs(h[FIELDS.updatedAt]) : null,
  };
}

/** The root key's override of a quota in a stored settings hash: null = none (the plan's), 0 = no limit. */
export function quotaOverrideOf(h: Record<string, string>, quota: "memories" | "bytes"): number | null {
  const v = Number(h[FIELDS.quota(quota)] ?? Number.NaN);
  return Number.isInteger(v) && v >= 0 ? v : null;
}

/** The tenant's CORS allow-list in a stored settings hash. */
export function originsOf(h: Record<string, string>): string[] {
  try {
    const list = JSON.parse(h[FIELDS.corsOrigins] ?? "[]");
    return Array.isArray(list) ? list.filter((o) => typeof o === "string") : [];
  } catch {
    return [];
  }
}

/** A patch as the fields to set and the fields to remove (null = no default: no field). */
export function changesOf(patch: UpdateTenantInput): { set: Record<string, string>; remove: string[] } {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  const r = patch.retention ?? {};
  for (const tier of RETENTION_TIERS) {
    const v = r[tier];
    if (v === null) remove.push(FIELDS.retention(tier));
    else if (v !== undefined) set[FIELDS.retention(tier)] = String(v);
  }
  if (r.cascade === true) set[FIELDS.cascade] = "1";
  if (r.cascade === false) remove.push(FIELDS.cascade);
  for (const quota of ["memories", "bytes"] as const) {
    const v = patch.quota?.[quota];
    if (v === null) remove.push(FIELDS.quota(quota));
    else if (v !== undefined) set[FIELDS.quota(quota)] = String(v);
  }
  const origins = patch.cors?.allowed_origins;
  if (origins?.length) set[FIELDS.corsOrigins] = JSON.stringify(origins);
  else if (origins) remove.push(FIELDS.corsOrigins);
  return { set, remove };
}
