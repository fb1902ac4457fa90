import type { DeliveryStatus, Webhook, WebhookDelivery } from "../contract/webhooks";

/** An endpoint as stored: the API's Webhook plus its secrets. */
export interface EndpointRecord {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: "failing" | "manual" | null;
  disabled_at: string | null;
  /** ms; the first failed attempt since the last success. */
  failing_since: number | null;
  secret: string;
  previous_secret: string | null;
  /** ms; the previous secret signs until then. */
  previous_secret_expires: number | null;
  environment: "live" | "test";
  created_at: string;
  updated_at: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const num = (s: string | undefined) => (s ? Number(s) : null);

/** The hash fields of a record; absent values are not written (`unset` lists them). */
export function endpointFields(rec: Partial<EndpointRecord>): { set: Record<string, string>; unset: string[] } {
  const set: Record<string, string> = {};
  const unset: string[] = [];
  for (const [field, value] of Object.entries(rec)) {
    if (value === null) unset.push(field);
    else if (value !== undefined)
      set[field] =
        field === "events" ? JSON.stringify(value) : typeof value === "boolean" ? (value ? "1" : "0") : String(value);
  }
  return { set, unset };
}

export function endpointOf(h: Record<string, string>): EndpointRecord {
  return {
    id: h.id!,
    url: h.url!,
    description: h.description ?? null,
    events: JSON.parse(h.events ?? "[]") as string[],
    enabled: h.enabled === "1",
    disabled_reason: (h.disabled_reason as EndpointRecord["disabled_reason"]) ?? null,
    disabled_at: h.disabled_at ?? null,
    failing_since: num(h.failing_since),
    secret: h.secret!,
    previous_secret: h.previous_secret ?? null,
    previous_secret_expires: num(h.previous_secret_expires),
    environment: h.environment === "test" ? "test" : "live",
    created_at: h.created_at!,
    updated_at: h.updated_at!,
  };
}

/** The secrets that sign at `now`: the current one, and the previous one during its grace. */
export const signingSecrets = (rec: EndpointRecord, now: number): string[] =>
  rec.previous_secret && (rec.previous_secret_expires ?? 0) > now ? [rec.secret, rec.previous_secret] : [rec.secret];

/** The endpoint as the API shows it: never a secret. */
export function toWebhook(rec: EndpointRecord, now = Date.now()): Webhook {
  const grace = rec.previous_secret && (rec.previous_secret_expires ?? 0) > now;
  return {
    id: rec.id,
    url: rec.url,
    description: rec.description,
    events: rec.events as Webhook["events"],
    enabled: rec.enabled,
    disabled_reason: rec.disabled_reason,
    disabled_at: rec.disabled_at,
    failing_since: iso(rec.failing_since),
    environment: rec.environment,
    previous_secret_expires_at: grace ? iso(rec.previous_secret_expires) : null,
    created_at: rec.created_at,
    updated_at: rec.updated_at,
  };
}

/** A delivery as the API shows it, from its stored fields (store/lua: the record's hash). */
export function toDelivery(h: Record<string, string>): WebhookDelivery {
  return {
    id: h.id!,
    webhook_id: h.webhook_id!,
    event_id: h.event_id!,
    event_type: h.event_type!,
    memory_id: h.memory_id || null,
    status: h.status as DeliveryStatus,
    attempt_count: Number(h.attempt_count ?? 0),
    next_attempt_at: iso(num(h.next_at)),
    created_at: h.created_at!,
    updated_at: h.updated_at!,
    attempts: attemptsOf(h.attempts),
  };
}

type Attempts = WebhookDelivery["attempts"];

/** A delivery's stored attempts; one stored before attempts carried `ok` (a refusal to a disabled endpoint) gets it. */
function attemptsOf(stored: string | undefined): Attempts {
  const attempts = JSON.parse(stored && stored !== "{}" ? stored : "[]") as Attempts;
  for (const a of attempts) a.ok ??= a.error === null;
  return attempts;
}
