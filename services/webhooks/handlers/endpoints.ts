import {
  ALL_EVENTS,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  SECRET_GRACE_MS,
  updateWebhook,
} from "../../contract/webhooks";
import { notFound, ServiceError } from "../../contract/errors";
import { bind, type Handler } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import type { Space } from "../../kit/space";
import { checkWebhookUrl } from "../url-policy";
import { generateSecret } from "../signature";
import { toWebhook, type EndpointRecord } from "../record";
import type { WebhookStore } from "../store";

export interface WebhookDeps {
  store: WebhookStore;
  /** The operator's allow-list (url-policy.ts). */
  allowed: ReadonlySet<string>;
  /** Tells this replica's delivery worker that something is due now in these partitions. */
  wake: (partitions: Iterable<number>) => void;
  now?: () => number;
}

const SHOW_ONCE = "Store this secret securely: it will not be shown again.";
/** Rotations of one endpoint that keep meeting another rotation give up after this many tries. */
const MAX_TRIES = 10;

/** `["*", …]` means every type: it is stored as `["*"]` alone. */
const normalEvents = (events: EndpointRecord["events"]) => (events.includes(ALL_EVENTS) ? [ALL_EVENTS] : events);

export function endpointHandlers(deps: WebhookDeps) {
  const now = deps.now ?? Date.now;

  /** The caller's endpoint, else one 404 for unknown and another tenant's or environment's. */
  const endpointOf = async (space: Space, id: string) => {
    const rec = await deps.store.endpoints.get(space, id);
    if (!rec) throw notFound("Webhook");
    return rec;
  };

  const create: Handler<typeof createWebhook> = async (input, ctx) => {
    const space = spaceOf(ctx);
    checkWebhookUrl(input.url, deps.allowed);
    const at = new Date(now()).toISOString();
    const rec: EndpointRecord = {
      id: crypto.randomUUID(),
      url: input.url,
      description: input.description ?? null,
      events: normalEvents(input.events),
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      secret: generateSecret(),
      previous_secret: null,
      previous_secret_expires: null,
      environment: space.env,
      created_at: at,
      updated_at: at,
    };
    await deps.store.endpoints.insert(space, rec);
    return { ...toWebhook(rec), secret: rec.secret, message: SHOW_ONCE };
  };

  const list: Handler<typeof listWebhooks> = async (input, ctx) => {
    const limit = input.limit ?? 50;
    const offset = input.offset ?? 0;
    const { records, total } = await deps.store.endpoints.page(spaceOf(ctx), offset, limit);
    return { items: records.map((r) => toWebhook(r, now())), total, limit, offset };
  };

  const get: Handler<typeof getWebhook> = async ({ id }, ctx) => toWebhook(await endpointOf(spaceOf(ctx), id), now());

  const update: Handler<typeof updateWebhook> = async ({ id, ...fields }, ctx) => {
    const space = spaceOf(ctx);
    if (Object.keys(fields).length === 0) return get({ id }, ctx);
    if (fields.url !== undefined) checkWebhookUrl(fields.url, deps.allowed);
    const at = new Date(now()).toISOString();
    const change: Partial<EndpointRecord> = { updated_at: at };
    if (fields.url !== undefined) change.url = fields.url;
    if (fields.events !== undefined) change.events = normalEvents(fields.events);
    if (fields.description !== undefined) change.description = fields.description;
    if (fields.enabled === true)
      Object.assign(change, { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
    if (fields.enabled === false) Object.assign(change, { enabled: false, disabled_reason: "manual", disabled_at: at });
    const rec = await deps.store.endpoints.update(space, id, change);
    return toWebhook(rec!, now());
  };

  const remove: Handler<typeof deleteWebhook> = async ({ id }, ctx) => {
    await deps.store.endpoints.delete(spaceOf(ctx), id);
    // Its deliveries go too; one left behind (a worker mid-attempt) is removed when next claimed.
    await deps.store.deliveries.purge(id);
    return { id, deleted: true as const };
  };

  const rotate: Handler<typeof rotateWebhookSecret> = async ({ id }, ctx) => {
    const space = spaceOf(ctx);
    for (let tries = 1; tries <= MAX_TRIES; tries++) {
      const before = await endpointOf(space, id);
      const at = now();
      const change = {
        secret: generateSecret(),
        previous_secret: before.secret,
        previous_secret_expires: at + SECRET_GRACE_MS,
        updated_at: new Date(at).toISOString(),
      };
      const after = await deps.store.endpoints.update(space, id, change, { secret: before.secret });
      if (after) {
        const until = new Date(change.previous_secret_expires).toISOString();
        const message = `${SHOW_ONCE} The previous secret signs deliveries too until ${until}.`;
        return { ...toWebhook(after, at), secret: after.secret, message };
      }
    }
    throw new ServiceError("SERVICE_UNAVAILABLE", "The webhook's secret kept changing; retry");
  };

  return { create, list, get, update, remove, rotate, endpointOf };
}

export const endpointBindings = (deps: WebhookDeps) => {
  const h = endpointHandlers(deps);
  return [
    bind(createWebhook, h.create),
    bind(listWebhooks, h.list),
    bind(getWebhook, h.get),
    bind(updateWebhook, h.update),
    bind(deleteWebhook, h.remove),
    bind(rotateWebhookSecret, h.rotate),
  ];
};
