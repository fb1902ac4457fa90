import { Type as T, type Static } from "@sinclair/typebox";
import { op } from "./op";
import { DateTime, Deleted, Enum, ENVIRONMENTS, Nullable, Page, pageInput, Uuid } from "./common";
import { MEMORY_EVENT_TYPES, MemorySnapshot } from "./events";

/**
 * Outbound webhooks: endpoints a tenant registers per environment, and the deliveries of domain events
 * to them (Standard Webhooks: signed with HMAC-SHA256, at least once, retried with backoff).
 */

/** The public name of each memory event: `memory.<type>` (the EVENTS stream's `events.memory.<type>`). */
export const WEBHOOK_EVENT_TYPES = MEMORY_EVENT_TYPES.map((t) => `memory.${t}` as const);
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Sent only by `POST /v1/webhooks/:id/test`, whatever the endpoint subscribes to. */
export const PING_EVENT = "ping";
/** Subscribes to every event type, those added later included. */
export const ALL_EVENTS = "*";
export const SUBSCRIBABLE = [ALL_EVENTS, ...WEBHOOK_EVENT_TYPES] as const;

/** Endpoints per tenant and environment. */
export const MAX_WEBHOOKS = 20;

/** The body every delivery POSTs: `id` is the event's, the same on every retry (deduplicate on it). */
export const WebhookEventBody = T.Object({
  id: T.String({ description: "The event's id; also the webhook-id header. Stable across retries." }),
  type: T.String({ description: "memory.created | memory.updated | memory.deleted | … | ping" }),
  timestamp: DateTime({ description: "When the change was committed (the ping: when it was asked for)." }),
  data: T.Object({
    memory_id: Nullable(T.String()),
    version: Nullable(T.Integer({ description: "The memory's version after the change: order by it." })),
    changed: T.Array(T.String(), { description: "Fields that changed (memory.updated); empty otherwise." }),
    memory: Nullable(MemorySnapshot),
  }),
});
export type WebhookEventBody = Static<typeof WebhookEventBody>;

const WebhookUrl = T.String({
  minLength: 1,
  maxLength: 2048,
  description: "https:// (http:// only for hosts on the operator's allow-list); never a private address.",
});
const WebhookEvents = T.Array(Enum(SUBSCRIBABLE), {
  minItems: 1,
  maxItems: SUBSCRIBABLE.length,
  uniqueItems: true,
  description: 'Event types to receive, or ["*"] for all.',
});
const Description = T.String({ maxLength: 500 });
const WebhookId = T.String({ minLength: 1, maxLength: 64 });

export const WEBHOOK_DISABLED_REASONS = ["failing", "manual"] as const;

export const Webhook = T.Object({
  id: Uuid(),
  url: T.String(),
  description: Nullable(T.String()),
  events: T.Array(Enum(SUBSCRIBABLE)),
  enabled: T.Boolean(),
  disabled_reason: Nullable(
    Enum(WEBHOOK_DISABLED_REASONS, {
      description: "failing: every attempt failed for the disable threshold (3 days); manual: PATCH enabled false.",
    }),
  ),
  disabled_at: Nullable(DateTime()),
  failing_since: Nullable(DateTime({ description: "First failed attempt since the last success; null when healthy." })),
  environment: Enum(ENVIRONMENTS),
  previous_secret_expires_at: Nullable(
    DateTime({ description: "Until then deliveries carry a signature by the previous secret too." }),
  ),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type Webhook = Static<typeof Webhook>;

export const CreatedWebhook = T.Composite([
  Webhook,
  T.Object({ secret: T.String({ description: "whsec_…: shown only here." }), message: T.String() }),
]);

export const createWebhook = op({
  subject: "webhooks.create",
  secret: true,
  input: T.Object(
    { url: WebhookUrl, events: WebhookEvents, description: T.Optional(Description) },
    { additionalProperties: false },
  ),
  output: CreatedWebhook,
  scope: "admin",
  summary: "Register a webhook endpoint (its signing secret is returned only here)",
});

export const listWebhooks = op({
  subject: "webhooks.list",
  idempotent: true,
  input: T.Object({ ...pageInput(50) }, { additionalProperties: false }),
  output: Page(Webhook),
  scope: "admin",
  summary: "List the webhook endpoints of the tenant's environment, newest first",
});

export const getWebhook = op({
  subject: "webhooks.get",
  idempotent: true,
  input: T.Object({ id: WebhookId }, { additionalProperties: false }),
  output: Webhook,
  scope: "admin",
  summary: "Get one webhook endpoint (never its secret)",
});

export const updateWebhook = op({
  subject: "webhooks.update",
  input: T.Object(
    {
      id: WebhookId,
      url: T.Optional(WebhookUrl),
      events: T.Optional(WebhookEvents),
      description: T.Optional(Nullable(Description)),
      enabled: T.Optional(T.Boolean({ description: "true also clears a disabled endpoint's failure record." })),
    },
    { additionalProperties: false },
  ),
  output: Webhook,
  scope: "admin",
  summary: "Change a webhook endpoint: only the fields sent change",
});

export const deleteWebhook = op({
  subject: "webhooks.delete",
  input: T.Object({ id: WebhookId }, { additionalProperties: false }),
  output: Deleted,
  scope: "admin",
  summary: "Delete a webhook endpoint and its pending deliveries",
});

export const rotateWebhookSecret = op({
  subject: "webhooks.rotate_secret",
  secret: true,
  input: T.Object({ id: WebhookId }, { additionalProperties: false }),
  output: CreatedWebhook,
  scope: "admin",
  summary: "Give a webhook endpoint a new signing secret; the previous one signs too for 24 hours",
});

export const DELIVERY_STATUSES = ["queued", "pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DeliveryAttempt = T.Object({
  at: DateTime(),
  status_code: Nullable(T.Integer({ description: "The receiver's HTTP status; null when none came back." })),
  latency_ms: T.Number(),
  error: Nullable(T.String({ description: "Why the attempt failed: timeout, connection, refused address…" })),
  ok: T.Boolean({ description: "The receiver answered 2xx in time: the attempt succeeded (error is null)." }),
  manual: T.Boolean({ description: "Asked for by a retry call or a test." }),
});

export const WebhookDelivery = T.Object({
  id: Uuid(),
  webhook_id: Uuid(),
  event_id: T.String(),
  event_type: T.String(),
  memory_id: Nullable(T.String()),
  status: Enum(DELIVERY_STATUSES, {
    description:
      "queued: waits for an earlier event of the same memory; pending: an attempt is due at next_attempt_at " +
      "(or running); succeeded; failed: gave up (retries exhausted, endpoint disabled or deleted).",
  }),
  attempt_count: T.Integer(),
  next_attempt_at: Nullable(DateTime()),
  created_at: DateTime(),
  updated_at: DateTime(),
  attempts: T.Array(DeliveryAttempt, { description: "The most recent attempts (up to 20), oldest first." }),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const testWebhook = op({
  subject: "webhooks.test",
  input: T.Object({ id: WebhookId }, { additionalProperties: false }),
  output: WebhookDelivery,
  scope: "admin",
  summary: "Send a ping event to a webhook endpoint now (even a disabled one); follow it in its deliveries",
});

export const listWebhookDeliveries = op({
  subject: "webhooks.deliveries",
  idempotent: true,
  input: T.Object(
    { id: WebhookId, ...pageInput(50), status: T.Optional(Enum(DELIVERY_STATUSES)) },
    { additionalProperties: false },
  ),
  output: Page(WebhookDelivery),
  scope: "admin",
  summary: "Recent deliveries to a webhook endpoint, newest first, with their attempts and next retry",
});

export const retryWebhookDelivery = op({
  subject: "webhooks.retry",
  input: T.Object({ id: WebhookId, delivery_id: WebhookId }, { additionalProperties: false }),
  output: WebhookDelivery,
  scope: "admin",
  summary: "Attempt one delivery again now, whatever its status",
});

/** How long a rotated-out secret keeps signing deliveries beside the new one. */
export const SECRET_GRACE_MS = 24 * 3600_000;
