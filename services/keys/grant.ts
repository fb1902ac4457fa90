import type { Static } from "@sinclair/typebox";
import { DEFAULT_SCOPES, type CreateKeyInput, type Plan } from "../contract/keys";
import { ServiceError } from "../contract/errors";
import type { Scope } from "../contract/op";
import type { KeyRecord } from "./record";
import { effectiveLimits, planLimits, type Limits } from "./limits";

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
  selfHosted: Limits;
}

/**
 * The grant of a key minted by `issuer`, or a 403 naming every field it may not grant. A minted key
 * never holds more than its issuer: its scopes are a subset of the issuer's (`*` only from `*`), its
 * per-minute limit is at most the issuer's effective one, it lives in the issuer's tenant, plan and
 * environment sandbox (test keys mint test keys), and it expires no later than the issuer. Fields
 * left out default to what the issuer may give, except `environment` (live, as documented) and
 * `scopes` (the default scopes), so an omission never widens a key silently.
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
  const refused: Partial<Record<Field, unknown>> = {};
  const allowed: Partial<Record<Field, unknown>> = {};
  const refuse = (field: Field, asked: unknown, may: unknown) => {
    refused[field] = asked;
    allowed[field] = may;
  };

  const tenant = input.tenant_id;
  if (tenant !== undefined && tenant !== issuer.tenant_id) refuse("tenant_id", tenant, issuer.tenant_id);
  if (issuer.environment === "test" && environment === "live") refuse("environment", environment, "test");
  const extra = issuer.scopes.includes("*") ? [] : scopes.filter((s) => !issuer.scopes.includes(s));
  if (extra.length > 0) refuse("scopes", extra, issuer.scopes);
  if (input.plan !== undefined && input.plan !== issuer.plan) refuse("plan", input.plan, issuer.plan);
  const cap = effectiveLimits(issuer.plan, issuer.rate_limit, settings.selfHosted).perMinute; // 0 = unlimited
  if (cap > 0 && input.rate_limit !== undefined && input.rate_limit > cap) refuse("rate_limit", input.rate_limit, cap);
  const latest = issuer.expires_at;
  if (latest !== null && input.expires_at !== undefined && Date.parse(input.expires_at) > Date.parse(latest)) {
    refuse("expires_at", input.expires_at, latest);
  }

  const fields = Object.keys(refused);
  if (fields.length > 0) {
    const message = `A key cannot grant more than it holds: ${fields.join(", ")}`;
    throw new ServiceError("FORBIDDEN", message, { field: fields[0], refused, allowed });
  }
  // The issuer's plan: without a rate_limit of its own the key would get the plan's limit, maybe above the issuer's.
  const planMinute = planLimits(issuer.plan, settings.selfHosted).perMinute;
  const inherited = cap > 0 && (planMinute === 0 || planMinute > cap) ? cap : null;
  return {
    tenant_id: issuer.tenant_id,
    scopes,
    rate_limit: input.rate_limit ?? inherited,
    plan: issuer.plan,
    environment,
    expires_at: input.expires_at ?? latest,
  };
}
