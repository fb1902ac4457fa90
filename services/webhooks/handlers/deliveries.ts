import { listWebhookDeliveries, retryWebhookDelivery, testWebhook } from "../../contract/webhooks";
import { bind, type Handler } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import { deliveryIdOf, pingBody } from "../payload";
import { partitionOf } from "../store/keyspace";
import { endpointHandlers, type WebhookDeps } from "./endpoints";

export function deliveryHandlers(deps: WebhookDeps) {
  const now = deps.now ?? Date.now;
  const { endpointOf } = endpointHandlers(deps);

  const ping: Handler<typeof testWebhook> = async ({ id }, ctx) => {
    const space = spaceOf(ctx);
    await endpointOf(space, id);
    const at = now();
    const body = pingBody(new Date(at).toISOString());
    const delivery = {
      id: deliveryIdOf(id, body.id),
      webhook_id: id,
      ...space,
      event_id: body.id,
      event_type: body.type,
      memory_id: null,
      version: null,
      body: JSON.stringify(body),
      manual: true,
    };
    await deps.store.deliveries.enqueue([delivery], at);
    deps.wake([partitionOf(id)]);
    return (await deps.store.deliveries.get(id, delivery.id))!;
  };

  const list: Handler<typeof listWebhookDeliveries> = async ({ id, status, ...page }, ctx) => {
    await endpointOf(spaceOf(ctx), id);
    const limit = page.limit ?? 50;
    const offset = page.offset ?? 0;
    const { items, total } = await deps.store.deliveries.page(id, offset, limit, status);
    return { items, total, limit, offset };
  };

  const retry: Handler<typeof retryWebhookDelivery> = async ({ id, delivery_id }, ctx) => {
    await endpointOf(spaceOf(ctx), id);
    const delivery = await deps.store.deliveries.retry(id, delivery_id, now());
    deps.wake([partitionOf(id)]);
    return delivery;
  };

  return { ping, list, retry };
}

export const deliveryBindings = (deps: WebhookDeps) => {
  const h = deliveryHandlers(deps);
  return [bind(testWebhook, h.ping), bind(listWebhookDeliveries, h.list), bind(retryWebhookDelivery, h.retry)];
};
