import type { Static } from "@sinclair/typebox";
import { DEFAULT_SCOPES, type CreateKeyInput, type Plan } from "../contract/keys";
import { ServiceError } from "../contract/errors";
import type { Scope } from "../contract/op";
import type { KeyRecord } from "./record";
import { effectiveLimits, planLimits, type PlanRateLimits } from "./limits";

type Input = Static<typeof CreateKeyInput>;
type Environment = "live" | "test";

/** What a new key is given. */
export interface Grant {
  tenant_id: string;
  scopes: Scope[];
  rate_limit: number | null;
  plan: Plan;
  environment: Environment;
  expires_at: string | null;
}

type Field = keyof Grant;

/** The minting key, as far as the rule needs it; the root key (the operator's) is bound by none of it. */
export type Issuer = Pick<KeyRecord, "tenant_id" | "scopes" | "rate_limit" | "plan" | "environment" | "expires_at"> & {
  root: boolean;
};

export interface GrantSettings {
  defaultPlan: Plan;
  selfHosted: PlanRateLimits;
}

/**
 * What a key is asked to hold, field by field, as a request sends it; a field left out asks nothing.
 * `rate_limit: null` asks for the key's plan limit, `expires_at: null` for no expiry.
 */
export interface Asked {
  tenant_id?: string;
  environment?: Environment;
  scopes?: Scope[];
  plan?: Plan;
  rate_limit?: number | null;
  expires_at?: string | null;
}

/**
 * The minting rule, the one place it lives: a 403 naming every field of `asked` that `issuer` may not
 * grant a key on plan `plan`. A key never holds more than its issuer: its scopes are a subset of the
 * issuer's (`*` only from `*`), its per-minute limit is at most the issuer's effective one, it lives in
 * the issuer's tenant, plan and environment sandbox (test keys mint test keys), and it expires no later
 * than the issuer. The root key (the operator's) is bound by none of it.
 */
export function refuseBeyondIssuer(issuer: Issuer, asked: Asked, plan: Plan, settings: GrantSettings): void {
  if (issuer.root) return;
  const refused: Partial<Record<Field, unknown>> = {};
  const allowed: Partial<Record<Field, unknown>> = {};
  const refuse = (field: Field, value: unknown, may: unknown) => {
    refused[field] = value;
    allowed[field] = may;
  };

  const tenant = asked.tenant_id;
  if (tenant !== undefined && tenant !== issuer.tenant_id) refuse("tenant_id", tenant, issuer.tenant_id);
  if (issuer.environment === "test" && asked.environment === "live") refuse("environment", "live", "test");
  const extra = issuer.scopes.includes("*") ? [] : (asked.scopes ?? []).filter((s) => !issuer.scopes.includes(s));
  if (extra.length > 0) refuse("scopes", extra, issuer.scopes);
  if (asked.plan !== undefined && asked.plan !== issuer.plan) refuse("plan", asked.plan, issuer.plan);
  const cap = issuerCap(issuer, settings); // 0 = unlimited
  if (cap > 0 && asked.rate_limit !== undefined) {
    // null: the key's plan limit, refused like a number above the cap (an unlimited plan included).
    const limit = asked.rate_limit ?? planLimits(plan, settings.selfHosted).perMinute;
    if (limit === 0 || limit > cap) refuse("rate_limit", asked.rate_limit, cap);
  }
  const latest = issuer.expires_at;
  const asksLater = (at: string | null) => at === null || Date.parse(at) > Date.parse(latest!);
  if (latest !== null && asked.expires_at !== undefined && asksLater(asked.expires_at)) {
    refuse("expires_at", asked.expires_at, latest);
  }

  const fields = Object.keys(refused);
  if (fields.length > 0) {
    const message = `A key cannot grant more than it holds: ${fields.join(", ")}`;
    throw new ServiceError("FORBIDDEN", message, { field: fields[0], refused, allowed });
  }
}

/** The issuer's effective per-minute limit: the most it may give a key (0 = unlimited). */
const issuerCap = (issuer: Issuer, settings: GrantSettings) =>
  effectiveLimits(issuer.plan, issuer.rate_limit, settings.selfHosted).perMinute;

/**
 * The grant of a key minted by `issuer`, or the minting rule's 403. Fields left out default to what the
 * issuer may give, except `environment` (live, as documented) and `scopes` (the default scopes, checked
 * like given ones), so an omission never widens a key silently.
 */
export function resolveGrant(issuer: Issuer, input: Input, settings: GrantSettings): Grant {
  const environment = input.environment ?? "live";
  const scopes = input.scopes ?? [...DEFAULT_SCOPES];
  if (issuer.root) {
    return {
      tenant_id: input.tenant_id ?? issuer.tenant_id,
      scopes,
      rate_limit: input.rate_limit ?? null,
      plan: input.plan ?? settings.defaultPlan,
      environment,
      expires_at: input.expires_at ?? null,
    };
  }
  const { tenant_id, plan, rate_limit, expires_at } = input;
  refuseBeyondIssuer(issuer, { tenant_id, environment, scopes, plan, rate_limit, expires_at }, issuer.plan, settings);
  // The issuer's plan: without a rate_limit of its own the key would get the plan's limit, maybe above the issuer's.
  const cap = issuerCap(issuer, settings);
  const planMinute = planLimits(issuer.plan, settings.selfHosted).perMinute;
  const inherited = cap > 0 && (planMinute === 0 || planMinute > cap) ? cap : null;
  return {
    tenant_id: issuer.tenant_id,
    scopes,
    rate_limit: input.rate_limit ?? inherited,
    plan: issuer.plan,
    environment,
    expires_at: input.expires_at ?? issuer.expires_at,
  };
}
