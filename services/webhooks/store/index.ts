import type { RedisClient } from "../../kit/redis-functions";
import { webhooksLibrary } from "./library";
import { endpointStore } from "./endpoints";
import { deliveryStore } from "./deliveries";

/** The only code of the webhooks service that touches Redis (key names: keyspace.ts). */
export function createWebhookStore(redis: RedisClient) {
  const call = webhooksLibrary.on(redis);
  return { endpoints: endpointStore(redis, call), deliveries: deliveryStore(redis, call) };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;
export type { EndpointStore } from "./endpoints";
export type { Attempt, Claimed, DeliveryStore, NewDelivery, Outcome } from "./deliveries";
