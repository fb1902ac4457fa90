import { createHash } from "node:crypto";
import type { MemoryEvent } from "../contract/events";
import { PING_EVENT, type WebhookEventBody } from "../contract/webhooks";

/** The namespace of this service's name-based UUIDs (RFC 9562 version 5). */
const NAMESPACE = Buffer.from("6f1c2a4e9b7d4c3a8e5f0a1b2c3d4e5f", "hex");

/** A UUID that a name always gives: the same event or delivery, however often it is derived. */
export function nameUuid(name: string): string {
  const hash = createHash("sha1").update(NAMESPACE).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * An event's id: one per change of a memory (its id and version; memory ids are unique across tenants),
 * the same for every endpoint and every attempt, so receivers deduplicate on it (`webhook-id`).
 */
export const eventIdOf = (e: Pick<MemoryEvent, "memory_id" | "version">) =>
  `evt_${nameUuid(`${e.memory_id}:${e.version}`)}`;

/** A delivery is one event to one endpoint: its id is derived, so handing an event over again adds nothing. */
export const deliveryIdOf = (webhookId: string, eventId: string) => nameUuid(`${webhookId}:${eventId}`);

export const webhookTypeOf = (e: Pick<MemoryEvent, "type">) => `memory.${e.type}`;

/** What a receiver gets for a memory event: no tenant or environment (the endpoint implies them). */
export function memoryEventBody(e: MemoryEvent): WebhookEventBody {
  return {
    id: eventIdOf(e),
    type: webhookTypeOf(e),
    timestamp: e.at,
    data: { memory_id: e.memory_id, version: e.version, changed: e.changed, memory: e.memory },
  };
}

export function pingBody(at: string): WebhookEventBody {
  return {
    id: `evt_${crypto.randomUUID()}`,
    type: PING_EVENT,
    timestamp: at,
    data: { memory_id: null, version: null, changed: [], memory: null },
  };
}

/** Whether an endpoint subscribed to an event type. */
export const subscribes = (events: readonly string[], type: string) => events.includes("*") || events.includes(type);
