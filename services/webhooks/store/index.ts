import type { RedisClient } from "../../kit/redis-functions";
import { webhooksLibrary } from "../lua/library";
import { endpointStore } from "./endpoints";
import { deliveryStore } from "./deliveries";
import { endpointKey, endpointsKey } from "./keyspace";
import { globLiteral, unlinkMatching } from "../../kit/redis-scan";
import { hashTag, type Space } from "../../kit/space";

/** The only code of the webhooks service that touches Redis (key names: keyspace.ts). */
export function createWebhookStore(redis: RedisClient) {
  const call = webhooksLibrary.on(redis);
  const endpoints = endpointStore(redis, call);
  const deliveries = deliveryStore(redis, call);

  /**
   * One step of erasing the space's webhooks (contract/erase.ts): each endpoint's record goes first (nothing is
   * delivered to it from then on), then its deliveries in their partition, then its place in the list, so an
   * interrupted erase still finds, in the list, every endpoint whose deliveries may be left.
   */
  async function erase(space: Space, budget: number): Promise<{ deleted: number; done: boolean }> {
    let deleted = 0;
    for (const id of await redis.zrange(endpointsKey(space), "0", "-1")) {
      deleted += await redis.unlink(endpointKey(space, id));
      await deliveries.purge(id);
      await redis.zrem(endpointsKey(space), id);
    }
    const rest = await unlinkMatching(redis, [`wh:${globLiteral(hashTag(space))}:*`, endpointsKey(space)], budget);
    return { deleted: deleted + rest.deleted, done: rest.done };
  }

  return { endpoints, deliveries, erase };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;
export type { EndpointStore } from "./endpoints";
export type { Attempt, ClaimedDelivery, DeliveryStore, NewDelivery, AttemptOutcome } from "./deliveries";
